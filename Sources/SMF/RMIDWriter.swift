/// Writes an RMID file (the SF2-RMIDI specification, rev. 1.19): a Standard MIDI File in a RIFF
/// `RMID` form, its `LIST INFO`, and a sound bank after them, in the order the specification
/// wants, every odd chunk padded to an even length.
///
/// Reading the output gives back the song, the texts and the bank offset given, the picture's
/// and the bank's bytes in their place (see ``RMIDInfo`` and ``EmbeddedSoundBank``).
public struct RMIDWriter: Sendable {
    /// The texts to write, each as a NUL-ended string (RIFF INFO texts are C strings; a text is
    /// read back up to its first NUL).
    public var texts: [RMIDInfo.Field: [UInt8]]
    /// `IENC`'s encoding name for the texts (e.g. `utf-8`, `Shift_JIS`), written as given.
    public var textEncoding: String?
    /// `MENC`'s encoding name for the song's own text events.
    public var midiTextEncoding: String?
    /// `DBNK`, clamped to 0–127; nil writes none (a reader then assumes 1).
    public var bankOffset: Int?
    /// `IPIC`: a PNG or JPEG picture's bytes.
    public var picture: [UInt8]?

    public init(
        texts: [RMIDInfo.Field: [UInt8]] = [:], textEncoding: String? = nil, midiTextEncoding: String? = nil, bankOffset: Int? = nil,
        picture: [UInt8]? = nil
    ) {
        self.texts = texts
        self.textEncoding = textEncoding
        self.midiTextEncoding = midiTextEncoding
        self.bankOffset = bankOffset
        self.picture = picture
    }

    /// The RMID file of `song` (a whole Standard MIDI File's bytes) and `soundBank` (a whole
    /// SoundFont or DLS file's bytes, from its `RIFF` on).
    public func encode(song: [UInt8], soundBank: [UInt8]? = nil) -> [UInt8] {
        var body = Array("RMID".utf8)
        Self.appendChunk("data", song, to: &body)
        let info = infoChunks()
        if !info.isEmpty { Self.appendChunk("LIST", Array("INFO".utf8) + info, to: &body) }
        if let soundBank {
            // The bank is a RIFF chunk already; only its pad byte may be missing.
            body += soundBank
            if soundBank.count % 2 == 1 { body.append(0) }
        }
        var file = Array("RIFF".utf8)
        Self.appendUInt32(body.count, to: &file)
        return file + body
    }

    private func infoChunks() -> [UInt8] {
        var chunks: [UInt8] = []
        for field in RMIDInfo.Field.allCases {
            guard let text = texts[field], !text.isEmpty else { continue }
            // An album is written as IPRD, the RIFF INFO chunk that Windows and older readers
            // show as the album; the specification reads it as IALB's equal.
            Self.appendChunk(field.chunkIDs.last!, text + [0], to: &chunks)
        }
        if let textEncoding { Self.appendChunk("IENC", Array(textEncoding.utf8) + [0], to: &chunks) }
        if let midiTextEncoding { Self.appendChunk("MENC", Array(midiTextEncoding.utf8) + [0], to: &chunks) }
        if let bankOffset {
            let value = UInt16(min(max(bankOffset, 0), 127))
            Self.appendChunk("DBNK", [UInt8(value & 0xFF), UInt8(value >> 8)], to: &chunks)
        }
        if let picture, !picture.isEmpty { Self.appendChunk("IPIC", picture, to: &chunks) }
        return chunks
    }

    /// A chunk: its ID, its size (little-endian, without the pad byte), its body, a pad byte if odd.
    private static func appendChunk(_ id: String, _ body: [UInt8], to bytes: inout [UInt8]) {
        bytes += Array(id.utf8)
        appendUInt32(body.count, to: &bytes)
        bytes += body
        if body.count % 2 == 1 { bytes.append(0) }
    }

    private static func appendUInt32(_ value: Int, to bytes: inout [UInt8]) {
        let value = UInt32(clamping: value)
        for shift in stride(from: 0, through: 24, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
