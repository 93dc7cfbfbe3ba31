import Fuzzing

FuzzDriver.run(.smfReader)
