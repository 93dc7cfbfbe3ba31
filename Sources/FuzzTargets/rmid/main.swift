import Fuzzing

FuzzDriver.run(.rmid)
