"""What a run finds and what it keeps of it: the finding (`finding`), its fingerprint, the rules' docs
that Python-side rules carry (`ruledoc`), and what filters a run's findings reads (`config`,
`suppressions`, `baseline`); the policy that applies them is `validator.catalogue.policy`."""
