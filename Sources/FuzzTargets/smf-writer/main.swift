import Fuzzing

FuzzDriver.run(.smfWriter)
