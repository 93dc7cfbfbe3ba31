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
    /// An HMP or HMI file (Human Machine Interfaces') cut off inside a track or an event; what
    /// came before was kept.
    case hmiCutOff(offset: Int)
    /// A byte where an HMP or HMI event's status must be that is none; the track was read up to it.
    case hmiUnknownStatus(UInt8, offset: Int)
    /// An HMP or HMI track with no End of Track; read to its end.
    case hmiWithoutEnd(offset: Int)
    /// A Recomposer file whose header declares more tracks than it holds; those there were read.
    case recomposerTrackCountMismatch(declared: Int, found: Int)
    /// A Recomposer track cut off by the end of the file; the commands before it were played.
    case recomposerTrackCutOff(track: Int, offset: Int)
    /// A Recomposer track with no track end command; played to the end of its bytes.
    case recomposerTrackWithoutEnd(track: Int)
    /// A Recomposer track whose length is shorter than its header: neither it nor the tracks after
    /// it can be found.
    case recomposerBadTrackLength(track: Int, length: Int, offset: Int)
    /// A Recomposer command smfplay does not play (a Yamaha module's, the key scan, an external
    /// program) or does not know; passed over. Said for the first of each code.
    case recomposerCommandNotPlayed(UInt8, track: Int, offset: Int)
    /// A setup file the Recomposer song names (MT-32/CM-64 `.cm6`, Sound Canvas `.gsd`), which
    /// smfplay does not read; whether it lies beside the song, where that is known.
    case recomposerSetupFileNotRead(name: String, device: String, isBeside: Bool?)
    /// Recomposer tracks that loop for ever over different spans: each loop is played twice.
    case recomposerLoopsDisagree
    /// A Recomposer loop repeated so often that it can only mean for ever: taken as endless.
    case recomposerLongLoop(track: Int, offset: Int, passes: Int)
    /// A Recomposer loop end with no loop start before it; passed over.
    case recomposerLoopEndWithoutStart(track: Int, offset: Int)
    /// Recomposer loops nested deeper than smfplay follows; the deeper ones play once.
    case recomposerLoopsTooDeep(track: Int, offset: Int)
    /// A Recomposer same-measure command that points to no earlier measure; passed over.
    case recomposerBadSameMeasure(track: Int, offset: Int)
    /// A Recomposer track that plays on past what smfplay plays of a song (loops within loops); cut.
    case recomposerPlaysTooLong(track: Int)
    /// A Recomposer note that the key biases move outside 0–127; not played.
    case recomposerNoteOutOfRange(Int, track: Int)
    /// A gradual Recomposer tempo change, made at once.
    case recomposerGradualTempo(track: Int, offset: Int)
    /// A Recomposer tempo of 0: the header's (120 used), or a change's (ignored).
    case recomposerZeroTempo(track: Int?, offset: Int)
    /// Ticks per quarter note in a Recomposer header that a MIDI file cannot count (48 used).
    case recomposerInvalidTimebase(Int)
    /// A Recomposer header's time signature that is none (its denominator no power of 2); left out.
    case recomposerInvalidTimeSignature(numerator: UInt8, denominator: UInt8)
    /// A Recomposer channel beyond the 32 of two ports; the track sends nothing until another.
    case recomposerInvalidChannel(Int, track: Int)
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
        case .hmiCutOff(let offset):
            "the file is cut off at byte \(offset); what came before it was kept"
        case .hmiUnknownStatus(let byte, let offset):
            "\(hex(byte)) at byte \(offset) is no event; its track was read up to it"
        case .hmiWithoutEnd(let offset):
            "the track at byte \(offset) has no End of Track; read to its end"
        case .recomposerTrackCountMismatch(let declared, let found):
            "the Recomposer header declares \(declared) tracks but the file holds \(found); those were read"
        case .recomposerTrackCutOff(let track, let offset):
            "Recomposer track \(track) is cut off by the end of the file at byte \(offset); what came before was played"
        case .recomposerTrackWithoutEnd(let track):
            "Recomposer track \(track) has no track end command; played to the end of its bytes"
        case .recomposerBadTrackLength(let track, let length, let offset):
            "Recomposer track \(track) at byte \(offset) declares a length of \(length) bytes, shorter than its header; neither it nor the tracks after it were read"
        case .recomposerCommandNotPlayed(let code, let track, let offset):
            if let name = Self.recomposerCommandNames[code] {
                "Recomposer command \(hex(code)) (\(name)) in track \(track) at byte \(offset) is not played; passed over, as are the others like it"
            } else {
                "unknown Recomposer command \(hex(code)) in track \(track) at byte \(offset); passed over, as are the others like it"
            }
        case .recomposerSetupFileNotRead(let name, let device, let isBeside):
            switch isBeside {
            case true?:
                "the song asks for the \(device) setup file '\(name)', which lies beside it; smfplay does not read setup files yet, so the song plays without it"
            case false?:
                "the song asks for the \(device) setup file '\(name)', which is not beside it (smfplay does not read setup files yet); the song plays without it"
            case nil:
                "the song asks for the \(device) setup file '\(name)', which smfplay does not read yet; the song plays without it"
            }
        case .recomposerLoopsDisagree:
            "the Recomposer tracks loop for ever over different spans, which make no loop of the song; each loop is played twice, then the song ends"
        case .recomposerLongLoop(let track, let offset, let passes):
            "the loop ending at byte \(offset) in Recomposer track \(track) repeats \(passes) times, longer than 4000 quarter notes: taken as a loop for ever"
        case .recomposerLoopEndWithoutStart(let track, let offset):
            "loop end without a loop start at byte \(offset) in Recomposer track \(track); passed over"
        case .recomposerLoopsTooDeep(let track, let offset):
            "loops nested more than 16 deep at byte \(offset) in Recomposer track \(track); the deeper ones play once"
        case .recomposerBadSameMeasure(let track, let offset):
            "the same-measure command at byte \(offset) in Recomposer track \(track) points to no earlier measure; passed over"
        case .recomposerPlaysTooLong(let track):
            "Recomposer track \(track) plays on past what smfplay plays of a song (1000000 commands in all, loops unrolled, or 268 million ticks); cut there"
        case .recomposerNoteOutOfRange(let note, let track):
            "a note of Recomposer track \(track) is moved by the key biases to \(note), outside 0–127; not played, nor the others like it"
        case .recomposerGradualTempo(let track, let offset):
            "the gradual tempo change at byte \(offset) in Recomposer track \(track) is made at once, as are the others"
        case .recomposerZeroTempo(let track?, let offset):
            "the tempo change to 0% at byte \(offset) in Recomposer track \(track) is ignored"
        case .recomposerZeroTempo(nil, _):
            "the Recomposer header's tempo is 0; 120 bpm used"
        case .recomposerInvalidTimebase(let ticks):
            "the Recomposer header counts \(ticks) ticks per quarter note, which a MIDI file cannot; 48 used"
        case .recomposerInvalidTimeSignature(let numerator, let denominator):
            "the Recomposer header's time signature \(numerator)/\(denominator) is none; left out (4/4)"
        case .recomposerInvalidChannel(let channel, let track):
            "Recomposer track \(track) names channel \(channel + 1), beyond the 32 of two ports; it sends nothing until it names another"
        }
    }
}

extension SMFWarning {
    /// The Recomposer commands that smfplay knows and does not play, by name.
    static let recomposerCommandNames: [UInt8: String] = [
        0x99: "external command", 0xC0: "DX7 function", 0xC1: "DX parameter", 0xC2: "DX performance", 0xC3: "TX function",
        0xC5: "FB-01 parameter", 0xC6: "FB-01 system", 0xC7: "TX81Z VCED", 0xC8: "TX81Z ACED", 0xC9: "TX81Z PCED", 0xCA: "TX81Z system",
        0xCB: "TX81Z effect", 0xCC: "DX7-II remote switch", 0xCD: "DX7-II ACED", 0xCE: "DX7-II PCED", 0xCF: "TX802 PCED",
        0xD0: "Yamaha base address", 0xD1: "Yamaha device", 0xD2: "Yamaha parameter", 0xD3: "XG parameter", 0xDC: "MKS-7",
        0xE5: "key scan", 0xF7: "a continuation with nothing before it",
    ]
}
