import Synthesis

/// A synthesizer (FluidSynth with the sound module in front of it) fed the input as MIDI
/// messages: channel messages by status byte, `F0` system exclusive messages up to `F7` (GS, XG
/// and GM2 resets, parts, effects, tuning), and `F5 p` choosing the port (channels 16p to 16p+15);
/// then a block rendered, whose samples must be numbers. The synthesizer is reset for each input.
enum SoundModuleFuzzing {
    /// Made once: loading the SoundFont takes longer than thousands of inputs.
    static let synthesizer = Result { () throws(SynthesisError) in
        try Synthesizer(settings: SynthesizerSettings(gain: 0.5), soundFontPath: "/usr/share/sounds/sf2/TimGM6mb.sf2")
    }

    static func test(_ bytes: [UInt8]) throws(FuzzFailure) {
        let synthesizer: Synthesizer
        do {
            synthesizer = try Self.synthesizer.get()
        } catch {
            throw .cannotRun("the sound module's target plays TimGM6mb (make deps installs it): \(error)")
        }
        synthesizer.reset()
        var port = 0
        var index = 0
        func next() -> UInt8 {
            defer { index += 1 }
            return index < bytes.count ? bytes[index] : 0
        }
        while index < bytes.count {
            let status = next()
            switch status {
            case 0x80..<0xF0:
                let data1 = next()
                let data2 = status & 0xE0 == 0xC0 ? 0 : next()
                synthesizer.send(status: status, channel: port * 16 + Int(status & 0x0F), data1: data1, data2: data2)
            case 0xF0:
                let end = bytes[index...].firstIndex(of: 0xF7) ?? bytes.count
                bytes[index..<end].withUnsafeBufferPointer { synthesizer.sendSystemExclusive($0) }
                index = end + 1
            case 0xF5:
                port = Int(next() & 0x03)
            default:
                continue
            }
        }
        var block = [Float](repeating: 0, count: 2 * 64)
        synthesizer.render(into: &block, frames: 64)
        guard block.allSatisfy(\.isFinite) else { throw .brokenPromise("the synthesizer renders samples that are not numbers") }
    }
}
