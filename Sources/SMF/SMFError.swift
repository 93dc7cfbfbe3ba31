/// Why bytes could not be read as a Standard MIDI File.
///
/// Offsets count bytes from the start of the file (a RIFF wrapper included);
/// tracks count from 1, in the order of their `MTrk` chunks.
public enum SMFError: Error, Hashable, Sendable {
    /// Neither `MThd` nor a RIFF `RMID` wrapper at the start.
    case notAMIDIFile
    /// A RIFF file of another type (`WAVE`, `AVI `…).
    case riffWithoutMIDI(formType: String)
    /// A RIFF `RMID` file with no `data` chunk holding the song.
    case riffWithoutDataChunk
    /// The file ends inside the header chunk.
    case truncatedHeader(offset: Int)
    /// The header chunk declares fewer than 6 bytes.
    case headerTooShort(length: Int, offset: Int)
    /// A division of 0 ticks per quarter note or per frame.
    case zeroDivision
    /// An SMPTE division whose frame rate is not −24, −25, −29 or −30.
    case unknownFrameRate(Int8)
    /// No `MTrk` chunk at all.
    case noTracks
    /// An event runs past the end of its track.
    case truncatedEvent(offset: Int, track: Int)
    /// A variable-length quantity of more than 4 bytes.
    case variableLengthQuantityTooLong(offset: Int, track: Int)
    /// A data byte where a status byte is needed and no running status is in force.
    case missingStatus(byte: UInt8, offset: Int, track: Int)
    /// Absolute ticks beyond what a track can hold (2³² − 1).
    case trackTooLong(offset: Int, track: Int)
    /// More system exclusive and meta events in one track than can be indexed.
    case tooManyEvents(offset: Int, track: Int)
    /// More than 65535 track chunks, which no header can declare.
    case tooManyTracks(offset: Int)
    /// A MIDI 2.0 clip with no Delta Clockstamp Ticks Per Quarter Note: its times mean nothing.
    case clipWithoutTicksPerQuarterNote
    /// A MIDI 2.0 clip's ticks per quarter note of 0, or more than a MIDI file can hold (32767).
    case clipTicksPerQuarterNoteOutOfRange(Int)
    /// A MIDI 2.0 clip longer than a MIDI file's ticks can count (2³² − 1), or with events further
    /// apart than a track can hold (0x0FFFFFFF ticks).
    case clipTooLong(offset: Int)
    /// A MUS file whose score starts past its end.
    case musScoreOutsideFile(offset: Int)
    /// An XMI file with no `EVNT` chunk: no song.
    case xmiWithoutEvents
    /// An XMI song asked for by a number past the file's songs (`music.xmi/4` of 3).
    case xmiNoSuchSong(number: Int, count: Int)
    /// An HMP or HMI file (Human Machine Interfaces') whose header counts no tracks.
    case hmiWithoutTracks
    /// An HMP or HMI file whose header's tempo is 0 beats a minute.
    case hmiWithoutTempo
    /// A Recomposer file that ends inside its header (`length` bytes of the `needed`).
    case recomposerTruncatedHeader(length: Int, needed: Int)
    /// A warning, under a policy that rejects warnings.
    case rejected(SMFWarning)
}

extension SMFError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notAMIDIFile:
            MIDIFileSignature.mismatch
        case .riffWithoutMIDI(let formType):
            "not a MIDI file (a RIFF file of type '\(formType)', not RMID)"
        case .riffWithoutDataChunk:
            "RIFF RMID file has no 'data' chunk with the song in it"
        case .truncatedHeader(let offset):
            "file ends inside the MThd header at byte \(offset)"
        case .headerTooShort(let length, let offset):
            "MThd header at byte \(offset) is \(length) bytes long, at least 6 are needed"
        case .zeroDivision:
            "header division is 0 ticks, so no event has a time"
        case .unknownFrameRate(let rate):
            "header names an SMPTE frame rate of \(-Int(rate)) frames per second; only 24, 25, 29.97 and 30 exist"
        case .noTracks:
            "no MTrk track chunk in the file"
        case .truncatedEvent(let offset, let track):
            "truncated event at byte \(offset) in track \(track)"
        case .variableLengthQuantityTooLong(let offset, let track):
            "variable-length number longer than 4 bytes at byte \(offset) in track \(track)"
        case .missingStatus(let byte, let offset, let track):
            "data byte \(hex(byte)) with no status byte before it at byte \(offset) in track \(track)"
        case .trackTooLong(let offset, let track):
            "track \(track) runs past 4294967295 ticks at byte \(offset)"
        case .tooManyEvents(let offset, let track):
            "track \(track) has more than 16777215 system exclusive and meta events, at byte \(offset)"
        case .tooManyTracks(let offset):
            "more than 65535 MTrk track chunks (the next at byte \(offset))"
        case .clipWithoutTicksPerQuarterNote:
            "MIDI 2.0 clip without a Delta Clockstamp Ticks Per Quarter Note message, so no event has a time"
        case .clipTicksPerQuarterNoteOutOfRange(let ticks):
            "MIDI 2.0 clip counts \(ticks) ticks a quarter note; from 1 to 32767 can be played"
        case .clipTooLong(let offset):
            "MIDI 2.0 clip runs past 4294967295 ticks, or leaves more than 268435455 ticks between events, at byte \(offset)"
        case .hmiWithoutTracks:
            "its header counts no tracks"
        case .hmiWithoutTempo:
            "its header's tempo is 0 beats a minute"
        case .recomposerTruncatedHeader(let length, let needed):
            "the Recomposer file ends after \(length) bytes, inside its header of \(needed)"
        case .xmiWithoutEvents:
            "XMI file without an EVNT chunk: it holds no song"
        case .xmiNoSuchSong(let number, let count):
            "the XMI file holds \(count) song\(count == 1 ? "" : "s"), no song \(number)"
        case .musScoreOutsideFile(let offset):
            "MUS file's score starts at byte \(offset), past the end of the file"
        case .rejected(let warning):
            "\(warning) (rejected by strict reading)"
        }
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
}
