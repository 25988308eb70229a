"""Small helper package the scripts next to it import."""
