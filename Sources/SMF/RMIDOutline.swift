/// Where the parts of a RIFF `RMID` file lie: its song (`data`), its `LIST INFO` and its sound bank.
///
/// Read as players in the wild read them, not as the SF2-RMIDI specification's rules would
/// reject them: chunks in any order, a wrong bank offset, unknown and repeated chunks, sizes past
/// the end of the file each give a warning and the file is read. Nothing is copied but the INFO
/// texts (each bounded), and no list of chunks is kept, so a hostile file costs no memory.
struct RMIDOutline {
    /// The `data` chunk's body: the Standard MIDI File.
    var song: Range<Int>
    /// nil when the file has no INFO list, or one that says nothing.
    var info: RMIDInfo?
    var soundBank: EmbeddedSoundBank?

    /// The longest INFO text kept; the rest is dropped with a warning. Real ones are a line or
    /// a paragraph.
    static let maximumTextLength = 1 << 16

    /// The parts of the file's order the specification wants: data, INFO, bank.
    private enum Part: Int, Comparable {
        case song, info, soundBank

        static func < (a: Part, b: Part) -> Bool { a.rawValue < b.rawValue }

        var name: String {
            switch self {
            case .song: "the song ('data')"
            case .info: "the INFO list"
            case .soundBank: "the sound bank"
            }
        }
    }

    /// Reads the chunks of a RIFF file whose form type is `RMID` (the caller checked both).
    init(_ bytes: UnsafeBufferPointer<UInt8>, log: inout WarningLog) throws(SMFError) {
        var song: Range<Int>?
        var info: RMIDInfo?
        var soundBank: (format: EmbeddedSoundBank.Format, bytes: Range<Int>)?
        var order: [Part] = []
        // The RIFF size is ignored: it is often wrong in files from the wild, and the file's end
        // is what counts.
        var chunks = RIFFChunks(bytes, from: 12, to: bytes.count)
        while let chunk = try chunks.next(log: &log) {
            let form = chunk.body.count >= 4 ? riffChunkID(bytes, at: chunk.body.lowerBound) : nil
            switch chunk.id {
            case "data":
                // A data chunk that does not start with MThd holds no song; look on.
                guard form == "MThd" else {
                    try log.add(.dataChunkWithoutSong(offset: chunk.start))
                    continue
                }
                guard song == nil else {
                    try log.add(.repeatedRMIDChunk(id: "data", offset: chunk.start))
                    continue
                }
                song = chunk.body
                order.append(.song)
            case "LIST" where form == "INFO":
                guard info == nil else {
                    try log.add(.repeatedRMIDChunk(id: "LIST INFO", offset: chunk.start))
                    continue
                }
                try Self.checkComplete(chunk, id: "LIST INFO", log: &log)
                info = try Self.readInfo(bytes, list: chunk.body.lowerBound + 4..<chunk.body.upperBound, log: &log)
                order.append(.info)
            case "RIFF" where form == "sfbk" || form == "DLS ":
                guard soundBank == nil else {
                    try log.add(.repeatedRMIDChunk(id: "RIFF \(form ?? "")", offset: chunk.start))
                    continue
                }
                guard let format = try Self.soundBankFormat(bytes, chunk: chunk, form: form, log: &log) else { continue }
                soundBank = (format, chunk.start..<chunk.body.upperBound)
                order.append(.soundBank)
            case "DISP", "JUNK", "PAD ":
                // RIFF's own: a title to display, and padding. Nothing to warn about.
                continue
            default:
                try log.add(.unknownChunk(id: chunk.id == "LIST" || chunk.id == "RIFF" ? "\(chunk.id) \(form ?? "")" : chunk.id, offset: chunk.start))
            }
        }
        guard let song else { throw .riffWithoutDataChunk }
        if order != order.sorted() { try log.add(.rmidChunksOutOfOrder(order.map(\.name))) }
        self.song = song
        self.info = info?.isEmpty == true ? nil : info
        self.soundBank = soundBank.map { bank in
            // Without a DBNK, the specification's default, whatever the bank's format.
            EmbeddedSoundBank(format: bank.format, bytes: bank.bytes, bankOffset: info?.bankOffset ?? EmbeddedSoundBank.defaultBankOffset)
        }
    }

    /// A sound bank cut off by the end of the file is kept, with a warning, as long as its own
    /// 12-byte header is there to say what it is: the synthesizer is the judge of whether what
    /// is left loads (a SoundFont's presets are at its end, so it will rarely load, but a file
    /// whose sizes are off by a pad byte loses nothing), and it falls back on the main
    /// SoundFont if not. A `sfbk` that does not start as every SoundFont does (its `LIST INFO`)
    /// is not one, and is skipped.
    private static func soundBankFormat(
        _ bytes: UnsafeBufferPointer<UInt8>, chunk: RIFFChunk, form: String?, log: inout WarningLog
    ) throws(SMFError) -> EmbeddedSoundBank.Format? {
        if form == "DLS " {
            try checkComplete(chunk, id: "RIFF DLS ", log: &log)
            return .downloadableSounds
        }
        let list = chunk.body.lowerBound + 4
        guard chunk.body.upperBound - list >= 12, riffChunkID(bytes, at: list) == "LIST", riffChunkID(bytes, at: list + 8) == "INFO" else {
            try log.add(.notASoundFont(offset: chunk.start))
            return nil
        }
        try checkComplete(chunk, id: "RIFF sfbk", log: &log)
        return .soundFont
    }

    private static func checkComplete(_ chunk: RIFFChunk, id: String, log: inout WarningLog) throws(SMFError) {
        if chunk.isCutByEnd {
            try log.add(.rmidChunkPastEndOfFile(id: id, offset: chunk.start, declared: chunk.declaredSize, available: chunk.body.count))
        }
    }

    /// The INFO list's chunks, in any order; the first of each kind counts, unknown ones and
    /// empty ones are skipped without a word (the specification says to ignore them).
    private static func readInfo(_ bytes: UnsafeBufferPointer<UInt8>, list: Range<Int>, log: inout WarningLog) throws(SMFError) -> RMIDInfo {
        var info = RMIDInfo()
        var chunks = RIFFChunks(bytes, from: list.lowerBound, to: list.upperBound)
        // Chunk IDs by the field they hold, to find the field of each chunk read.
        let fields = Dictionary(uniqueKeysWithValues: RMIDInfo.Field.allCases.flatMap { field in field.chunkIDs.map { ($0, field) } })
        var album: (id: String, bytes: [UInt8])?
        var seen: Set<String> = []
        while let chunk = try chunks.next(log: &log) {
            let id = chunk.id
            guard !chunk.body.isEmpty, seen.insert(id).inserted else { continue }
            let body = UnsafeBufferPointer(rebasing: bytes[chunk.body])
            switch id {
            case "DBNK":
                info.bankOffset = try bankOffset(body, offset: chunk.start, log: &log)
            case "IENC", "MENC":
                let name = String(decoding: body.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                let encoding = TextDecoding.Encoding(declaredName: name)
                if encoding == nil { try log.add(.unknownTextEncoding(chunk: id, name: name)) }
                if id == "IENC" { info.textEncoding = encoding } else { info.midiTextEncoding = encoding }
            case "IPIC":
                let format = RMIDInfo.Picture.format(of: body)
                if format == nil { try log.add(.unknownPictureFormat(offset: chunk.start)) }
                info.picture = RMIDInfo.Picture(bytes: chunk.body, format: format)
            default:
                guard let field = fields[id] else { continue }
                var text = Array(body.prefix { $0 != 0 })
                if text.count > maximumTextLength {
                    try log.add(.longInfoText(id: id, length: text.count, kept: maximumTextLength))
                    text.removeLast(text.count - maximumTextLength)
                }
                guard !text.isEmpty else { continue }
                if field == .album {
                    // IALB wins over IPRD, whichever comes first.
                    if album == nil || id == field.chunkIDs[0] { album = (id, text) }
                } else {
                    info.texts[field] = text
                }
            }
        }
        if let album { info.texts[.album] = album.bytes }
        return info
    }

    /// A `DBNK`: two bytes, little-endian, 0–127. Another length or a value out of range is read
    /// as the specification's own player does (its first two bytes as a signed number, clamped).
    private static func bankOffset(_ body: UnsafeBufferPointer<UInt8>, offset: Int, log: inout WarningLog) throws(SMFError) -> Int {
        if body.count != 2 { try log.add(.bankOffsetLength(body.count, offset: offset)) }
        let raw = UInt16(body[0]) | (body.count > 1 ? UInt16(body[1]) << 8 : 0)
        let value = Int(Int16(bitPattern: raw))
        let clamped = min(max(value, 0), 127)
        if clamped != value { try log.add(.bankOffsetOutOfRange(value, used: clamped)) }
        return clamped
    }
}

/// One RIFF chunk: where it starts, its ID, and its body cut at the end of what holds it.
struct RIFFChunk {
    var start: Int
    var id: String
    var body: Range<Int>
    var declaredSize: Int
    var isCutByEnd: Bool { body.count < declaredSize }
}

/// The chunks from `start` to `end`, one at a time (no list: a file of millions of empty
/// chunks costs no memory). An odd-sized chunk is followed by a pad byte; a writer that left it
/// out is caught when the padded place holds no chunk ID and the unpadded place does.
struct RIFFChunks {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        self.bytes = bytes
        position = start
        self.end = end
    }

    mutating func next(log: inout WarningLog) throws(SMFError) -> RIFFChunk? {
        let start = position
        guard end - start >= 8, let id = riffChunkID(bytes, at: start) else {
            // Zeros are padding some writers add; anything else is not a chunk, and what follows
            // it cannot be found.
            if end > start, bytes[start..<end].contains(where: { $0 != 0 }) { try log.add(.trailingData(count: end - start, offset: start)) }
            position = end
            return nil
        }
        let size = Int(readUInt32LittleEndian(bytes, at: start + 4))
        let body = start + 8..<min(end, start + 8 + size)
        position = body.upperBound
        if size & 1 == 1, position < end {
            if riffChunkID(bytes, at: position + 1) == nil, riffChunkID(bytes, at: position) != nil {
                try log.add(.missingPadByte(id: id, offset: start))
            } else {
                position += 1
            }
        }
        return RIFFChunk(start: start, id: id, body: body, declaredSize: size)
    }
}

/// The four-character chunk ID at `offset`, or `nil` when those bytes are not printable ASCII.
func riffChunkID(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> String? {
    guard offset >= 0, bytes.count - offset >= 4 else { return nil }
    let id = bytes[offset..<offset + 4]
    guard id.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
    return String(decoding: id, as: UTF8.self)
}

func readUInt32LittleEndian(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
    UInt32(bytes[offset + 3]) << 24 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
}
