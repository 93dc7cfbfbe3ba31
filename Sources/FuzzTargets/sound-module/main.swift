import Fuzzing

FuzzDriver.run(.soundModule)
