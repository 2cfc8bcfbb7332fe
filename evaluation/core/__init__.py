"""What every harness shares: the data sets of ../shared/eval (`datasets`), the held-out discipline
(`heldout`), the plain baselines printed beside each figure (`baselines`), hit ranks and recall
(`scoring`), and tables and PASS/FAIL floor lines (`report`). The core imports dualrag only, never
another room of `evaluation/`."""
