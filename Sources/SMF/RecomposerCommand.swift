/// One command of a Recomposer track as its layout writes it. RCP: the code, the step time, the
/// first value (a note's gate time), the second (a note's velocity), a byte each. G36: the code,
/// the second value, then the step time and the first value in two bytes each (low byte first).
struct RecomposerCommand {
    private let version: RecomposerHeader.Version
    private let bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    /// The command at `offset`, whose bytes are there.
    init(_ file: UnsafeBufferPointer<UInt8>, at offset: Int, version: RecomposerHeader.Version) {
        self.version = version
        let wide = version == .g36
        bytes = (file[offset], file[offset + 1], file[offset + 2], file[offset + 3], wide ? file[offset + 4] : 0, wide ? file[offset + 5] : 0)
    }

    /// The note's key (below 0x80), or the command.
    var code: UInt8 { bytes.0 }

    /// The ticks to the next command; a loop end's count, a key change's key.
    var step: Int { version == .rcp ? Int(bytes.1) : Int(bytes.2) | Int(bytes.3) << 8 }

    /// The command's two values (a G36 file's first is the low byte of its wide field).
    var values: (UInt8, UInt8) { version == .rcp ? (bytes.2, bytes.3) : (bytes.4, bytes.1) }

    /// A note's gate time: its first value, the whole wide field in a G36 file.
    var gate: Int { version == .rcp ? Int(bytes.2) : Int(bytes.4) | Int(bytes.5) << 8 }

    /// A tempo change's scale (64 is the header's tempo): the first value, wide in G36 files, where
    /// it may pass 255 (rcm2smf).
    var tempoScale: Int { gate }

    /// The text (or exclusive data) a comment and its continuations carry: the two values of an
    /// RCP command, the five bytes after a G36 command's code.
    var text: [UInt8] { version == .rcp ? [bytes.2, bytes.3] : [bytes.1, bytes.2, bytes.3, bytes.4, bytes.5] }

    /// Where a same-measure command's measure starts, from the track's first byte. RCP writes
    /// the offset itself (its low two bits are the measure number's high bits); G36 the number of
    /// the measure's first command, counted from 0x30.
    var sameMeasureOffset: Int {
        switch version {
        case .rcp: Int(bytes.2 & 0xFC) | Int(bytes.3) << 8
        case .g36: version.trackHeaderLength + (gate - 0x30) * version.eventLength
        }
    }
}
