import Thumbnails

extension ChannelPalette {
    /// The channel colours of the piano-roll images, as the nearest colours of a terminal's
    /// 256-colour palette (its 6 × 6 × 6 cube), which every colour terminal shows; the 16 stay
    /// distinct there.
    static let terminalColours: [UInt8] = colours.map { colour in
        let levels = [0, 95, 135, 175, 215, 255]
        func level(_ component: UInt8) -> Int {
            levels.indices.min { abs(levels[$0] - Int(component)) < abs(levels[$1] - Int(component)) }!
        }
        return UInt8(16 + 36 * level(colour.red) + 6 * level(colour.green) + level(colour.blue))
    }

    /// The colour of a synthesizer channel (0–63: MIDI ports of 16 channels each), by its
    /// channel within its port.
    static func terminalColour(channel: Int) -> UInt8 {
        terminalColours[channel % terminalColours.count]
    }
}
