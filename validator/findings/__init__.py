"""What a run finds and what it keeps of it: the finding (`finding`), its fingerprint, the rules' docs
that Python-side rules carry (`ruledoc`), and the policy that filters a run's findings (`config`,
`suppressions`, `baseline`, `policy`)."""
