/// The header of a Recomposer file (Come On Music's sequencer for the PC-98): what the song is
/// (title, comment lines), how it counts time (ticks per quarter note, tempo, time and key
/// signature, a transposition for the whole song), the setup files it asks for, its 8 user
/// exclusive templates, and how many tracks follow. Two layouts: RCP v2 (`.rcp`, `.r36`) and
/// RCP v3 (`.g36`, `.g18`), the second with wider fields and events of 6 bytes instead of 4.
struct RecomposerHeader {
    enum Version {
        /// `RCM-PC98V2.0(C)COME ON MUSIC` and CR LF: `.rcp`, `.r36`.
        case rcp
        /// `COME ON MUSIC RECOMPOSER RCP3.0`: `.g36`, `.g18`.
        case g36

        static let rcpSignature = Array("RCM-PC98V2.0(C)COME ON MUSIC".utf8)
        static let g36Signature = Array("COME ON MUSIC RECOMPOSER RCP3.0".utf8)

        /// The bytes before the first track: the header's fields, its rhythm definitions (names
        /// for the drum notes, shown only by Recomposer) and its user exclusives.
        var headerLength: Int { self == .rcp ? 0x586 : 0xC98 }
        var userExclusiveOffset: Int { self == .rcp ? 0x406 : 0xB18 }
        /// A track's header: its length (2 bytes, or 4), number, rhythm mode, channel, key, step
        /// bias, mute flag and a name of 36 bytes.
        var trackHeaderLength: Int { self == .rcp ? 0x2C : 0x2E }
        var trackLengthFieldSize: Int { self == .rcp ? 2 : 4 }
        var eventLength: Int { self == .rcp ? 4 : 6 }
        var commentLineLength: Int { self == .rcp ? 28 : 30 }
        var kind: MIDIFile.Kind { self == .rcp ? .recomposerRCP : .recomposerG36 }

        /// The version whose signature `bytes` start with: all of it when the bytes are that
        /// long, else as much as there is of it, from 12 bytes (`MIDIFileSignature`'s look).
        init?(_ bytes: some Collection<UInt8>) {
            let head = Array(bytes.prefix(Self.g36Signature.count))
            guard head.count >= 12 else { return nil }
            if Self.rcpSignature.starts(with: head.prefix(Self.rcpSignature.count)) {
                self = .rcp
            } else if Self.g36Signature.starts(with: head) {
                self = .g36
            } else {
                return nil
            }
        }
    }

    /// A setup file the song asks for: a control file sent to the sound module before it plays.
    struct SetupFile: Hashable {
        var name: [UInt8]
        /// What it sets up, as a user reads it.
        var device: String
    }

    let version: Version
    /// Shift-JIS, as written: the project decides how to read text (``TextDecoding``).
    let title: [UInt8]
    /// The 12 comment lines, each without the blanks that pad it; the blank lines after the
    /// last one left out.
    let comments: [[UInt8]]
    let ticksPerQuarterNote: Int
    let beatsPerMinute: Int
    let beatNumerator: UInt8
    let beatDenominator: UInt8
    /// Recomposer's key byte: the number of sharps, or flats with bit 3, minor with bit 4.
    let key: UInt8
    /// Semitones added to every track but the rhythm tracks.
    let playBias: Int
    let declaredTrackCount: Int
    let setupFiles: [SetupFile]
    /// The 8 user exclusive templates (24 bytes each: the data without its F0, F7 padded).
    let userExclusives: [[UInt8]]

    /// Reads the header of `bytes`, which start with `version`'s signature.
    init(_ bytes: UnsafeBufferPointer<UInt8>, version: Version) throws(SMFError) {
        guard bytes.count >= version.headerLength else { throw .recomposerTruncatedHeader(length: bytes.count, needed: version.headerLength) }
        self.version = version
        func byte(_ offset: Int) -> Int { Int(bytes[offset]) }
        func word(_ offset: Int) -> Int { byte(offset) | byte(offset + 1) << 8 }
        func field(_ offset: Int, _ length: Int) -> [UInt8] { Array(bytes[offset..<offset + length]) }
        // The title is 64 bytes in both layouts (VB's notes give v3 128, of which TiMidity++ and
        // rcm2smf read 64: the rest is reserved).
        title = Self.trimmed(field(0x20, 0x40))
        let lineLength = version.commentLineLength
        let commentStart = version == .rcp ? 0x60 : 0xA0
        var lines = (0..<12).map { Self.trimmed(field(commentStart + $0 * lineLength, lineLength)) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        comments = lines
        switch version {
        case .rcp:
            ticksPerQuarterNote = byte(0x1E7) << 8 | byte(0x1C0)
            beatsPerMinute = byte(0x1C1)
            (beatNumerator, beatDenominator, key) = (bytes[0x1C2], bytes[0x1C3], bytes[0x1C4])
            playBias = Int(Int8(bitPattern: bytes[0x1C5]))
            // 0 in the earliest files, which always have 18.
            declaredTrackCount = byte(0x1E6) == 0 ? 18 : byte(0x1E6)
            setupFiles = [
                SetupFile(name: Self.fileName(field(0x1C6, 12)), device: "MT-32/CM-64"),
                SetupFile(name: Self.fileName(field(0x1D6, 12)), device: "Sound Canvas"),
            ].filter { !$0.name.isEmpty }
        case .g36:
            declaredTrackCount = word(0x208)
            ticksPerQuarterNote = word(0x20A)
            beatsPerMinute = word(0x20C)
            (beatNumerator, beatDenominator, key) = (bytes[0x20E], bytes[0x20F], bytes[0x210])
            playBias = Int(Int8(bitPattern: bytes[0x211]))
            setupFiles = [
                SetupFile(name: Self.fileName(field(0x298, 12)), device: "Sound Canvas (port A)"),
                SetupFile(name: Self.fileName(field(0x2A8, 12)), device: "Sound Canvas (port B)"),
                SetupFile(name: Self.fileName(field(0x2B8, 12)), device: "MT-32/CM-64"),
            ].filter { !$0.name.isEmpty }
        }
        // Each: a name of 24 bytes (shown only by Recomposer), then the template.
        userExclusives = (0..<8).map { field(version.userExclusiveOffset + $0 * 48 + 24, 24) }
    }

    /// The header's time signature; nil when it is none (a denominator that is no power of 2).
    var timeSignature: MetaEvent? {
        let denominator = Int(beatDenominator)
        guard beatNumerator > 0, denominator > 0, denominator & (denominator - 1) == 0 else { return nil }
        let power = UInt8(denominator.trailingZeroBitCount)
        // A metronome click a beat, as Valley Bell's rcp2mid writes it.
        return .timeSignature(numerator: beatNumerator, denominatorPower: power, clocksPerMetronomeClick: 96 >> power, thirtySecondNotesPerQuarter: 8)
    }

    /// Without the blanks and NULs that pad a field at its end.
    static func trimmed(_ field: [UInt8]) -> [UInt8] {
        var field = field
        while let last = field.last, last == 0x20 || last == 0 { field.removeLast() }
        return field
    }

    /// A file name field: up to its first NUL, without the blanks after.
    private static func fileName(_ field: [UInt8]) -> [UInt8] {
        trimmed(Array(field.prefix { $0 != 0 }))
    }
}
