"""Scoring a model against the dataset: compile, run and compare a model's code for a row's target column.

`run.evaluate(Options)` judges a predictions file (JSON Lines of `{"id", "column", "prediction"}`) against a
validated dataset folder or Hub repo; `prompts.prompt_view(row, column)` is the question a model is asked.
`scripts/evaluate.py` is the command line.
"""
