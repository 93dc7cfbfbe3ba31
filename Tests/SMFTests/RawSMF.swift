@testable import SMF

/// Builds SMF bytes by hand, for files the writer would never produce.
enum RawSMF {
    /// A header chunk; `length` other than 6 pads or cuts the body.
    static func header(format: UInt16 = 1, tracks: UInt16, division: UInt16 = 480, length: UInt32 = 6) -> [UInt8] {
        var body = be16(format) + be16(tracks) + be16(division)
        if length > 6 { body += Array(repeating: 0, count: Int(length) - 6) }
        if length < 6 { body = Array(body.prefix(Int(length))) }
        return Array("MThd".utf8) + be32(length) + body
    }

    /// A chunk with any ID; `declaredLength` overrides the real body length.
    static func chunk(_ id: String, _ body: [UInt8], declaredLength: UInt32? = nil) -> [UInt8] {
        Array(id.utf8) + be32(declaredLength ?? UInt32(body.count)) + body
    }

    /// A track chunk with the given event bytes, ended by End of Track unless `endOfTrack` is false.
    static func track(_ events: [UInt8], endOfTrack: Bool = true, declaredLength: UInt32? = nil) -> [UInt8] {
        chunk("MTrk", events + (endOfTrack ? [0x00, 0xFF, 0x2F, 0x00] : []), declaredLength: declaredLength)
    }

    /// A whole file: header plus track chunks.
    static func file(format: UInt16 = 1, division: UInt16 = 480, tracks: [[UInt8]]) -> [UInt8] {
        header(format: format, tracks: UInt16(tracks.count), division: division) + tracks.map { track($0) }.joined()
    }

    /// A variable-length quantity, up to 4 bytes.
    static func vlq(_ value: UInt32) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    /// A RIFF file of the given form type (`RMID`, `WAVE`…) holding `chunks`.
    static func riff(form: String, _ chunks: [[UInt8]]) -> [UInt8] {
        let body = Array(form.utf8) + chunks.joined()
        return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
    }

    /// A RIFF chunk: little-endian size, padded to an even length; `declaredLength` overrides the size.
    static func riffChunk(_ id: String, _ body: [UInt8], declaredLength: UInt32? = nil) -> [UInt8] {
        Array(id.utf8) + le32(declaredLength ?? UInt32(body.count)) + body + (body.count % 2 == 1 ? [0] : [])
    }

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func le32(_ value: UInt32) -> [UInt8] { be32(value).reversed() }
}
