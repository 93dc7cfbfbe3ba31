import Fuzzing

FuzzDriver.run(.configuration)
