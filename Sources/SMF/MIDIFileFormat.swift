/// The SMF format number from the header chunk.
public enum MIDIFileFormat: UInt16, Hashable, Sendable, CaseIterable {
    /// Format 0: one track holding every channel.
    case singleTrack = 0
    /// Format 1: tracks played together; tempo changes may be in any of them.
    case multipleTracksSynchronous = 1
    /// Format 2: independent patterns, played one after another.
    case multipleTracksAsynchronous = 2
}
