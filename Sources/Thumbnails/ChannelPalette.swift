/// The piano roll's colours: one hue per MIDI channel, bright against a dark
/// background, dimmed for soft notes.
public enum ChannelPalette {
    /// By channel, 0–15; channel 10 (index 9), General MIDI's drums, is grey.
    public static let colours: [RGB] = [
        RGB(0x4E9CFF), RGB(0xFF6B5E), RGB(0x5FD35F), RGB(0xFFC93C),
        RGB(0xC77DFF), RGB(0x3FD7D0), RGB(0xFF8FC7), RGB(0xFF9F40),
        RGB(0xA3E048), RGB(0xC8C8C8), RGB(0x7F8CFF), RGB(0xE8D870),
        RGB(0xFF4FA0), RGB(0x66C2A5), RGB(0xD2A36C), RGB(0x9AD0FF),
    ]

    /// Behind the white keys' rows.
    public static let background = RGB(0x181B22)
    /// Behind the black keys' rows, a shade darker, so the keyboard shows through.
    public static let blackKeyBackground = RGB(0x101217)

    /// The softest note keeps this share of its channel's brightness.
    static let softestBrightness = 0.3

    /// A note's colour: its channel's hue, as bright as its velocity (1–127).
    public static func colour(channel: UInt8, velocity: UInt8) -> RGB {
        let full = colours[Int(channel & 0x0F)]
        let share = softestBrightness + (1 - softestBrightness) * Double(min(velocity, 127)) / 127
        func scaled(_ component: UInt8) -> UInt8 { UInt8((Double(component) * share).rounded()) }
        return RGB(red: scaled(full.red), green: scaled(full.green), blue: scaled(full.blue))
    }

    /// The background of a key's rows.
    public static func background(ofPitch pitch: Int) -> RGB {
        [1, 3, 6, 8, 10].contains(pitch % 12) ? blackKeyBackground : background
    }
}
