/// Something unusual that the reader accepted: the file is read, and this says how.
public enum SMFWarning: Hashable, Sendable {
    /// Bytes before `MThd` that were skipped (a MacBinary header, say).
    case skippedLeadingBytes(count: Int)
    /// The header chunk is longer than 6 bytes; the rest was skipped.
    case longHeader(length: Int)
    /// A format number other than 0, 1 or 2; the file is read as format 1.
    case unknownFormat(UInt16)
    /// A format-0 file with more than one track; the tracks are played together.
    case singleTrackFormatWithManyTracks(count: Int)
    /// The header's track count differs from the number of `MTrk` chunks found.
    case trackCountMismatch(declared: Int, found: Int)
    /// A chunk that is neither `MThd` nor `MTrk`, skipped.
    case unknownChunk(id: String, offset: Int)
    /// A track whose declared length runs past the end of the file: what is there was read.
    case trackPastEndOfFile(track: Int, declared: Int, available: Int)
    /// A track cut off inside an event by the end of the file; the events before it were kept.
    case trackCutOff(track: Int, offset: Int)
    /// A track with no End of Track event.
    case missingEndOfTrack(track: Int)
    /// Bytes after a track's End of Track event, inside its chunk; ignored.
    case dataAfterEndOfTrack(track: Int, count: Int)
    /// Channel data bytes above 127 (the first at `offset`); kept raw, masked for playback.
    case dataBytesAbove127(track: Int, count: Int, offset: Int)
    /// System common or real-time messages (0xF1–0xF6, 0xF8–0xFE), which a file may
    /// not hold: `count` with this status in the track, the first at `offset`;
    /// skipped with the data bytes each takes.
    case straySystemMessages(status: UInt8, track: Int, count: Int, offset: Int)
    /// Events that use running status after a system exclusive or escape event
    /// ended it (the first's data byte at `offset`); read with the status before.
    case runningStatusAfterSystemExclusive(track: Int, count: Int, offset: Int)
    /// A meta event whose length does not fit its type; kept raw, not interpreted.
    case metaLengthMismatch(type: UInt8, length: Int, offset: Int, track: Int)
    /// A tempo of 0 microseconds per quarter note; ignored.
    case zeroTempo(offset: Int, track: Int)
    /// Bytes after the last chunk that are not a chunk; ignored.
    case trailingData(count: Int, offset: Int)
    /// An RMID `data` chunk that holds no `MThd`; skipped.
    case dataChunkWithoutSong(offset: Int)
    /// A second RMID chunk of a kind there is one of (`data`, `LIST INFO`, a sound bank); the first counts.
    case repeatedRMIDChunk(id: String, offset: Int)
    /// RMID chunks not in the specification's order (song, INFO, bank), named in their own; read anyway.
    case rmidChunksOutOfOrder([String])
    /// An RMID chunk (the INFO list, a sound bank) whose size runs past the end of the file; what is there was kept.
    case rmidChunkPastEndOfFile(id: String, offset: Int, declared: Int, available: Int)
    /// An odd-sized RIFF chunk with no pad byte after it; the next chunk was found where it is.
    case missingPadByte(id: String, offset: Int)
    /// A `RIFF sfbk` chunk that does not start as a SoundFont does; skipped.
    case notASoundFont(offset: Int)
    /// An `IENC` or `MENC` naming an encoding smfplay cannot read; the texts are read as if it named none.
    case unknownTextEncoding(chunk: String, name: String)
    /// An `IPIC` picture that is neither PNG nor JPEG; not shown.
    case unknownPictureFormat(offset: Int)
    /// An INFO text longer than smfplay keeps; its start was kept.
    case longInfoText(id: String, length: Int, kept: Int)
    /// A `DBNK` bank offset of another length than 2 bytes; its first two (or one) read.
    case bankOffsetLength(Int, offset: Int)
    /// A `DBNK` bank offset outside 0–127; the nearest of those used.
    case bankOffsetOutOfRange(Int, used: Int)
    /// A MIDI 2.0 clip whose last packet is cut by the end of the file; the packets before it were read.
    case clipCutOff(offset: Int)
    /// A MIDI 2.0 clip with no Start of Clip; its sequence taken to start at its first message.
    case clipWithoutStart
    /// A MIDI 2.0 clip with no End of Clip; read to the end of the file.
    case clipWithoutEnd
    /// Packets after a MIDI 2.0 clip's End of Clip; ignored.
    case clipDataAfterEnd(count: Int)
    /// A system exclusive message of a MIDI 2.0 clip begun and never ended (or ended and never begun); dropped.
    case unfinishedClipSystemExclusive(offset: Int)
    /// MIDI 2.0 messages a MIDI 1.0 synthesizer cannot be told; dropped.
    case midi2MessagesDropped(MIDI2DroppedMessage, count: Int)
    /// A MUS score cut off inside an event by the end of the file (or of its declared length); the events before it were kept.
    case musCutOff(offset: Int)
    /// A MUS event of a type the format does not have; the score was read up to it.
    case musUnknownEvent(type: UInt8, offset: Int)
    /// A MUS score with no Score End event; read to its end.
    case musWithoutEnd
    /// An XMI file with more songs than its first, which alone is played.
    case xmiSongsBeyondTheFirst(count: Int)
    /// An XMI song cut off inside an event by the end of its chunk; the events before it were kept.
    case xmiCutOff(offset: Int)
    /// A byte where an XMI event's status must be that is none; the song was read up to it.
    case xmiUnknownStatus(UInt8, offset: Int)
    /// An XMI song with no End of Track; read to its chunk's end.
    case xmiWithoutEnd
}

extension SMFWarning: CustomStringConvertible {
    public var description: String {
        switch self {
        case .skippedLeadingBytes(let count):
            "skipped \(count) bytes before the MThd header"
        case .longHeader(let length):
            "MThd header is \(length) bytes long; the \(length - 6) bytes after the first 6 were ignored"
        case .unknownFormat(let format):
            "unknown format \(format); read as format 1"
        case .singleTrackFormatWithManyTracks(let count):
            "format 0 file with \(count) tracks; they are played together"
        case .trackCountMismatch(let declared, let found):
            "header declares \(declared) tracks but the file has \(found)"
        case .unknownChunk(let id, let offset):
            "skipped unknown chunk '\(id)' at byte \(offset)"
        case .trackPastEndOfFile(let track, let declared, let available):
            "track \(track) declares \(declared) bytes but the file ends after \(available); read what is there"
        case .trackCutOff(let track, let offset):
            "track \(track) is cut off inside an event at byte \(offset); the events before it were kept"
        case .missingEndOfTrack(let track):
            "track \(track) has no End of Track event"
        case .dataAfterEndOfTrack(let track, let count):
            "ignored \(count) bytes after the End of Track of track \(track)"
        case .dataBytesAbove127(let track, let count, let offset):
            "track \(track) has \(count) data byte\(count == 1 ? "" : "s") above 127 (first at byte \(offset)); read as 7-bit values"
        case .straySystemMessages(let status, let track, let count, let offset):
            "track \(track) has \(count) \(SystemStatus.name(of: status))\(count == 1 ? "" : "s") (\(hex(status)), first at byte \(offset)), which a MIDI file may not hold; skipped"
        case .runningStatusAfterSystemExclusive(let track, let count, let offset):
            "track \(track) has \(count) event\(count == 1 ? "" : "s") using running status after a system exclusive or escape event ended it (first at byte \(offset)); read with the status before it"
        case .metaLengthMismatch(let type, let length, let offset, let track):
            "meta event \(hex(type)) at byte \(offset) in track \(track) has \(length) data bytes, \(MetaEvent.expectedLength(ofType: type) ?? 0) expected; kept uninterpreted"
        case .zeroTempo(let offset, let track):
            "tempo of 0 at byte \(offset) in track \(track) ignored"
        case .trailingData(let count, let offset):
            "ignored \(count) bytes of trailing data at byte \(offset)"
        case .dataChunkWithoutSong(let offset):
            "skipped a 'data' chunk at byte \(offset) that holds no MThd song"
        case .repeatedRMIDChunk(let id, let offset):
            "skipped a second '\(id)' chunk at byte \(offset); the first one counts"
        case .rmidChunksOutOfOrder(let parts):
            "the RMID file holds \(parts.joined(separator: ", then ")); the specification puts the song first, then the INFO list, then the sound bank; read anyway"
        case .rmidChunkPastEndOfFile(let id, let offset, let declared, let available):
            "chunk '\(id)' at byte \(offset) declares \(declared) bytes but the file ends after \(available); what is there was kept"
        case .missingPadByte(let id, let offset):
            "chunk '\(id)' at byte \(offset) has an odd size and no pad byte after it; the next chunk was read where it starts"
        case .notASoundFont(let offset):
            "the 'RIFF sfbk' chunk at byte \(offset) is not a SoundFont (it does not start with an INFO list); skipped, the main SoundFont plays"
        case .unknownTextEncoding(let chunk, let name):
            "'\(chunk)' names the text encoding '\(name)', which smfplay cannot read; \(chunk == "IENC" ? "the INFO texts" : "the song's texts") are read as if it named none"
        case .unknownPictureFormat(let offset):
            "the picture ('IPIC') at byte \(offset) is neither PNG nor JPEG; not shown"
        case .longInfoText(let id, let length, let kept):
            "the '\(id)' text is \(length) bytes long; its first \(kept) were kept"
        case .bankOffsetLength(let length, let offset):
            "the bank offset ('DBNK') at byte \(offset) is \(length) bytes long, 2 expected; its first \(min(length, 2)) read"
        case .bankOffsetOutOfRange(let value, let used):
            "the bank offset ('DBNK') is \(value), outside 0–127; \(used) used"
        case .clipCutOff(let offset):
            "the clip's last packet, at byte \(offset), is cut by the end of the file; the packets before it were read"
        case .clipWithoutStart:
            "the clip has no Start of Clip; its sequence starts at its first message"
        case .clipWithoutEnd:
            "the clip has no End of Clip; read to the end of the file"
        case .clipDataAfterEnd(let count):
            "\(count) packet\(count == 1 ? "" : "s") after the End of Clip; ignored"
        case .unfinishedClipSystemExclusive(let offset):
            "a system exclusive message at byte \(offset) is not whole (begun and not ended, or ended and not begun); dropped"
        case .midi2MessagesDropped(let kind, let count):
            "\(count) MIDI 2.0 \(kind.rawValue) message\(count == 1 ? "" : "s"), which MIDI 1.0 cannot say; dropped"
        case .musCutOff(let offset):
            "the MUS score is cut off inside an event at byte \(offset); the events before it were kept"
        case .musUnknownEvent(let type, let offset):
            "MUS event of unknown type \(type) at byte \(offset); the score was read up to it"
        case .musWithoutEnd:
            "the MUS score has no Score End event; read to its end"
        case .xmiSongsBeyondTheFirst(let count):
            "the XMI file holds \(count) more song\(count == 1 ? "" : "s") after the first, which alone is read here (its songs are FILE/1, FILE/2, …)"
        case .xmiCutOff(let offset):
            "the XMI song is cut off inside an event at byte \(offset); the events before it were kept"
        case .xmiUnknownStatus(let byte, let offset):
            "\(hex(byte)) at byte \(offset) is no XMI event; the song was read up to it"
        case .xmiWithoutEnd:
            "the XMI song has no End of Track; read to its end"
        }
    }
}
