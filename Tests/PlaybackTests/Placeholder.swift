// placeholder while the target is written
