import Synthesis

/// A song or a seek plan the audio thread is done with, on its way back to the interface, which
/// lets go of it there: freeing memory takes the allocator's lock, which the audio thread must not
/// wait for.
enum RetiredObject: Sendable {
    case song(PlayingSong)
    case plan(SeekPlan)
}
