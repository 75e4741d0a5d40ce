"""The rulesets as the layers above load them: every version, picked by id and date (`registry`), the
rulesets from outside the package (`sources`), and the page of the readings (`readings_page`)."""
