import Files
import SMF
import SystemPackage

/// What `smfplay info` says about an RMID file's own sound bank: its kind, its size, how many
/// presets it has and the bank offset they are heard at.
///
/// The presets are counted from the bank's own headers, a few small reads, without a
/// synthesizer: a SoundFont's `pdta/phdr` holds one 38-byte record a preset and a terminal one;
/// a DLS collection's `colh` says how many instruments it has. The samples are never read.
public struct SoundBankSummary: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable {
        /// A SoundFont 2, or 3 (its samples compressed), by the version in its `ifil`.
        case sf2, sf3
        case dls

        /// As people call it: "SF2", "SF3", "DLS".
        public var displayName: String { rawValue.uppercased() }
    }

    public var kind: Kind
    /// The bank's chunk in the file, as far as the file holds it.
    public var byteCount: Int
    /// Presets (SoundFont) or instruments (DLS); nil when the headers could not be read (a bank
    /// cut short by the end of the file has lost them).
    public var presetCount: Int?
    public var bankOffset: Int

    /// Reads the headers of `bank` through `read`, which gives the file's bytes in a range (fewer
    /// only at the file's end) or throws.
    public init(bank: EmbeddedSoundBank, read: @escaping (Range<Int>) throws -> [UInt8]) {
        byteCount = bank.bytes.count
        bankOffset = bank.bankOffset
        let reader = HeaderReader(bank: bank.bytes, read: read)
        switch bank.format {
        case .downloadableSounds:
            kind = .dls
            presetCount = (try? reader.body(of: ["colh"]))?.littleEndianUInt32(at: 0).map(Int.init)
        case .soundFont:
            let version = (try? reader.body(of: ["LIST INFO", "ifil"]))?.littleEndianUInt16(at: 0)
            kind = version == 3 ? .sf3 : .sf2
            let records = (try? reader.find(["LIST pdta", "phdr"])).map { $0.count / 38 }
            presetCount = records.map { max($0 - 1, 0) }
        }
    }

    /// Reads the headers of `bank` in the file at `path`.
    public init(bank: EmbeddedSoundBank, in file: ReadableFile) {
        self.init(bank: bank) { range in try file.read(upTo: range.count, at: Int64(range.lowerBound)) }
    }

    /// Reads the headers of `bank` in a file's bytes (one read from standard input).
    public init(bank: EmbeddedSoundBank, in bytes: [UInt8]) {
        self.init(bank: bank) { range in Array(bytes[max(0, min(range.lowerBound, bytes.count))..<min(range.upperBound, bytes.count)]) }
    }
}

/// Finds chunks inside a RIFF form by their path ("LIST pdta", then "phdr"), reading only chunk
/// headers and the small bodies asked for.
private struct HeaderReader {
    let bank: Range<Int>
    let read: (Range<Int>) throws -> [UInt8]

    /// No such chunk where the path says.
    struct Missing: Error {}

    /// The body of the small chunk at `path` (at most 64 bytes of it: enough for any header).
    func body(of path: [String]) throws -> [UInt8] {
        let body = try find(path)
        return try read(body.lowerBound..<min(body.upperBound, body.lowerBound + 64))
    }

    /// The body of the chunk at `path`, cut at the bank's end; each name a chunk ID or, for a
    /// `LIST`, "LIST" and its type; the first of each counts.
    func find(_ path: [String]) throws -> Range<Int> {
        // Inside the bank's RIFF form: past "RIFF", its size and its form type.
        var region = bank.lowerBound + 12..<bank.upperBound
        var found: Range<Int>?
        for name in path {
            found = nil
            var position = region.lowerBound
            // A bank has a handful of chunks at each level: a bound, for a hostile one.
            for _ in 0..<4096 where region.upperBound - position >= 8 {
                let header = try read(position..<position + 12)
                guard header.count >= 8 else { break }
                let id = String(decoding: header[0..<4], as: UTF8.self)
                let size = Int(header.littleEndianUInt32(at: 4) ?? 0)
                let listType = header.count >= 12 && id == "LIST" ? " " + String(decoding: header[8..<12], as: UTF8.self) : ""
                if id + listType == name {
                    let bodyStart = position + 8 + (listType.isEmpty ? 0 : 4)
                    found = bodyStart..<max(bodyStart, min(position + 8 + size, region.upperBound))
                    break
                }
                position += 8 + size + (size & 1)
            }
            guard let chunk = found else { throw Missing() }
            region = chunk
        }
        guard let found else { throw Missing() }
        return found
    }
}

extension [UInt8] {
    fileprivate func littleEndianUInt32(at offset: Int) -> UInt32? {
        guard count >= offset + 4 else { return nil }
        return UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }

    fileprivate func littleEndianUInt16(at offset: Int) -> UInt16? {
        guard count >= offset + 2 else { return nil }
        return UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }
}
