/// Writes a ``MIDIFile`` as Standard MIDI File bytes.
///
/// Channel messages use running status between consecutive channel messages
/// of the same status; after a system exclusive or meta event the status is
/// written again, since some players (FluidSynth before 2.3.6) lose it there.
///
/// Whatever the model holds, the file written is valid: strict reading (``SMFReadingPolicy/strict``)
/// accepts it and gives back ``written(_:)``, which is the model itself when it is already valid.
public struct SMFWriter: Sendable {
    public init() {}

    public func encode(_ file: MIDIFile) -> [UInt8] {
        let file = written(file)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(14 + file.tracks.reduce(0) { $0 + 8 + $1.events.count * 4 + $1.payloadBytes.count })
        bytes += Array("MThd".utf8)
        appendUInt32(6, to: &bytes)
        appendUInt16(file.format.rawValue, to: &bytes)
        appendUInt16(UInt16(file.tracks.count), to: &bytes)
        appendUInt16(file.timebase.division, to: &bytes)
        for track in file.tracks {
            bytes += Array("MTrk".utf8)
            let lengthOffset = bytes.count
            appendUInt32(0, to: &bytes)
            let bodyStart = bytes.count
            encode(track, into: &bytes)
            let length = UInt32(bytes.count - bodyStart)
            for shift in 0..<4 { bytes[lengthOffset + shift] = UInt8(truncatingIfNeeded: length >> (24 - 8 * shift)) }
        }
        return bytes
    }

    /// The file as it is written: the same song, valid. Each track ends with exactly one End of
    /// Track, and holds nothing a strict reader warns about (see ``Track/writable``); a format 0
    /// file of several tracks is format 1 (the reader plays its tracks together, as format 1's);
    /// a file of no tracks has one empty track, since a MIDI file has at least one; an RMID
    /// file's INFO and sound bank are not part of it (``RMIDWriter`` wraps the song in them).
    public func written(_ file: MIDIFile) -> MIDIFile {
        precondition(file.tracks.count <= Int(UInt16.max), "a MIDI file's header counts at most 65535 tracks")
        let format: MIDIFileFormat = file.format == .singleTrack && file.tracks.count > 1 ? .multipleTracksSynchronous : file.format
        return MIDIFile(format: format, timebase: file.timebase, tracks: file.tracks.isEmpty ? [Track().writable] : file.tracks.map(\.writable))
    }

    private func encode(_ track: Track, into bytes: inout [UInt8]) {
        var running: UInt8 = 0
        var previousTick: UInt32 = 0
        for event in track.events {
            appendVariableLengthQuantity(event.tick - previousTick, to: &bytes)
            previousTick = event.tick
            let status = event.status
            if event.isChannelMessage {
                if status != running { bytes.append(status) }
                bytes.append(event.data1)
                if TrackEvent.dataLength(ofChannelStatus: status) == 2 { bytes.append(event.data2) }
                running = status
                continue
            }
            bytes.append(status)
            if let type = track.metaType(of: event) { bytes.append(type) }
            let payload = track.payload(of: event)
            appendVariableLengthQuantity(UInt32(payload.count), to: &bytes)
            bytes += payload
            running = 0
        }
    }

    private func appendVariableLengthQuantity(_ value: UInt32, to bytes: inout [UInt8]) {
        var groups = 1
        while groups < 4, value >> (7 * UInt32(groups)) != 0 { groups += 1 }
        for group in stride(from: groups - 1, through: 0, by: -1) {
            let seven = UInt8(truncatingIfNeeded: value >> (7 * UInt32(group))) & 0x7F
            bytes.append(group == 0 ? seven : seven | 0x80)
        }
    }

    private func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private func appendUInt16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }
}
