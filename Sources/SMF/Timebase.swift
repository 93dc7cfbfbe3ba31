/// What a tick means: the header's division field.
public enum Timebase: Hashable, Sendable {
    /// Ticks per quarter note; tempo events set the length of a quarter note.
    case musical(ticksPerQuarterNote: UInt16)
    /// SMPTE time: ticks per frame at a fixed frame rate; tempo events do not apply.
    case smpte(SMPTEFrameRate, ticksPerFrame: UInt8)

    /// The division field as written in the header.
    public var division: UInt16 {
        switch self {
        case .musical(let ticks): ticks
        case .smpte(let rate, let ticks): UInt16(UInt8(bitPattern: -Int8(rate.rawValue))) << 8 | UInt16(ticks)
        }
    }
}

/// The frame rates an SMPTE division can name (the negative high byte of the division).
public enum SMPTEFrameRate: UInt8, Hashable, Sendable, CaseIterable {
    case fps24 = 24
    case fps25 = 25
    /// 30-frame drop-frame timecode, which runs at 29.97 frames per second.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The rate is written as its number, as the other cases are.
    case fps29_97Drop = 29
    case fps30 = 30

    /// Frames per second as a real number.
    public var framesPerSecond: Double {
        self == .fps29_97Drop ? 30_000.0 / 1_001.0 : Double(rawValue)
    }
}
