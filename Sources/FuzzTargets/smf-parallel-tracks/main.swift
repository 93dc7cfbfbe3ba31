import Fuzzing

FuzzDriver.run(.smfParallelTracks)
