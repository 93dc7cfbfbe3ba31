import Testing
import Thumbnails

@Suite("Channel palette")
struct ChannelPaletteTests {
    @Test func everyChannelHasItsOwnColourAndNoneIsTheBackground() {
        let colours = (0..<16).map { ChannelPalette.colour(channel: UInt8($0), velocity: 127) }
        #expect(Set(colours).count == 16)
        #expect(!colours.contains(ChannelPalette.background) && !colours.contains(ChannelPalette.blackKeyBackground))
    }

    @Test func louderNotesAreBrighter() {
        for channel in UInt8(0)..<16 {
            let brightness = [1, 32, 64, 100, 127].map { velocity -> Int in
                let colour = ChannelPalette.colour(channel: channel, velocity: UInt8(velocity))
                return Int(colour.red) + Int(colour.green) + Int(colour.blue)
            }
            #expect(brightness == brightness.sorted() && Set(brightness).count == brightness.count, "channel \(channel + 1): \(brightness)")
        }
    }

    @Test func blackKeysRowsAreShadedLikeAKeyboard() {
        let shaded = (60..<72).filter { ChannelPalette.background(ofPitch: $0) == ChannelPalette.blackKeyBackground }
        #expect(shaded == [61, 63, 66, 68, 70])
    }
}
