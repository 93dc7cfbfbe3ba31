import Fuzzing

FuzzDriver.run(.mpris)
