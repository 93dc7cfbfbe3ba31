import Fuzzing

FuzzDriver.run(.lists)
