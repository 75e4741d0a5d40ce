"""The commands of `casino-validator`, one module each. `validator/cli.py` parses the command line into
the command's one options object (validator/commands/options.py) and calls the module's `run` with it;
`run` writes the command's output and returns its exit status (0 nothing found, 1 findings), or raises
`ValidatorError` for a run that cannot be made (exit 2, the message on standard error).
"""
