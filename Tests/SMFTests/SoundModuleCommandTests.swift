import SMF
import TestSupport
import Testing

/// The GS, XG and GM2 system exclusive messages songs send, decoded; and everything else a file
/// may hold in a system exclusive event, decoded to nothing without trapping.
struct SoundModuleCommandTests {
    /// A GS data set to device 10H with its checksum.
    static func gs(_ address: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let sum = (address + data).reduce(0) { $0 + Int($1) }
        return [0x41, 0x10, 0x42, 0x12] + address + data + [UInt8((128 - sum % 128) % 128)]
    }

    @Test(
        "GS messages as the SC-88 manual gives them",
        arguments: [
            (gs([0x40, 0x00, 0x7F], [0x00]), [SoundModuleCommand.reset(.gs)]),
            (gs([0x40, 0x00, 0x7F], [0x7F]), [.reset(.gm)]),
            (gs([0x00, 0x00, 0x7F], [0x01]), [.reset(.gs)]),
            (gs([0x40, 0x00, 0x05], [0x4C]), [.masterKeyShift(semitones: 12)]),
            (gs([0x40, 0x00, 0x05], [0x00]), [.masterKeyShift(semitones: -24)]),
            (gs([0x40, 0x00, 0x06], [0x7F]), [.masterPan(1)]),
            (gs([0x40, 0x00, 0x00], [0x00, 0x04, 0x00, 0x00]), [.masterFineTune(cents: 0)]),
            (gs([0x40, 0x00, 0x00], [0x00, 0x07, 0x0E, 0x08]), [.masterFineTune(cents: 100)]),
            (gs([0x40, 0x01, 0x30], [0x02]), [.reverbMacro(2)]),
            (gs([0x40, 0x01, 0x38], [0x05]), [.chorusMacro(5)]),
            (gs([0x40, 0x10, 0x15], [0x00]), [.partDrumMode(part: 9, isDrum: false)]),
            (gs([0x40, 0x11, 0x15], [0x02]), [.partDrumMode(part: 0, isDrum: true)]),
            (gs([0x40, 0x1A, 0x15], [0x01]), [.partDrumMode(part: 10, isDrum: true)]),
            (gs([0x50, 0x1A, 0x15], [0x01]), [.partDrumMode(part: 26, isDrum: true)]),
            (gs([0x40, 0x13, 0x16], [0x3A]), [.partKeyShift(part: 2, semitones: -6)]),
            (gs([0x40, 0x14, 0x19], [0x50]), [.partController(part: 3, controller: 7, value: 0x50)]),
            (gs([0x40, 0x14, 0x1C], [0x00]), [.partController(part: 3, controller: 10, value: 64)]),
            (gs([0x40, 0x14, 0x21], [0x11]), [.partController(part: 3, controller: 93, value: 0x11)]),
            (gs([0x40, 0x14, 0x22], [0x22]), [.partController(part: 3, controller: 91, value: 0x22)]),
            (gs([0x40, 0x12, 0x02], [0x00]), [.partReceiveChannel(part: 1, channel: 0)]),
            (gs([0x40, 0x12, 0x02], [0x10]), [.partReceiveChannel(part: 1, channel: nil)]),
            // One data set writing level and then pan... the addresses count on: 19, 1A, 1B, 1C.
            (
                gs([0x40, 0x11, 0x19], [0x64, 0x00, 0x00, 0x20]),
                [
                    .partController(part: 0, controller: 7, value: 0x64),
                    .partController(part: 0, controller: 10, value: 0x20),
                ]
            ),
        ])
    func rolandDataSets(message: [UInt8], expected: [SoundModuleCommand]) {
        #expect(SoundModuleCommand.commands(in: message) == expected)
    }

    @Test(
        "XG parameter changes",
        arguments: [
            ([UInt8]([0x43, 0x10, 0x4C, 0x00, 0x00, 0x7E, 0x00]), [SoundModuleCommand.reset(.xg)]),
            ([0x43, 0x11, 0x4C, 0x00, 0x00, 0x7F, 0x00], [.reset(.xg)]),
            ([0x43, 0x10, 0x4C, 0x00, 0x00, 0x06, 0x34], [.masterKeyShift(semitones: -12)]),
            ([0x43, 0x10, 0x4C, 0x00, 0x00, 0x04, 0x7F], [.masterVolume(1)]),
            ([0x43, 0x10, 0x4C, 0x08, 0x00, 0x07, 0x01], [.partDrumMode(part: 0, isDrum: true)]),
            ([0x43, 0x10, 0x4C, 0x08, 0x09, 0x07, 0x00], [.partDrumMode(part: 9, isDrum: false)]),
            ([0x43, 0x10, 0x4C, 0x08, 0x03, 0x08, 0x43], [.partKeyShift(part: 3, semitones: 3)]),
            ([0x43, 0x10, 0x4C, 0x08, 0x03, 0x0B, 0x40], [.partController(part: 3, controller: 7, value: 0x40)]),
            ([0x43, 0x10, 0x4C, 0x08, 0x03, 0x13, 0x10], [.partController(part: 3, controller: 91, value: 0x10)]),
            ([0x43, 0x10, 0x4C, 0x08, 0x03, 0x04, 0x7F], [.partReceiveChannel(part: 3, channel: nil)]),
            ([0x43, 0x10, 0x4C, 0x08, 0x40, 0x07, 0x01], []),
        ])
    func yamahaParameterChanges(message: [UInt8], expected: [SoundModuleCommand]) {
        #expect(SoundModuleCommand.commands(in: message) == expected)
    }

    @Test(
        "GM and GM2 universal messages, to any device",
        arguments: [
            ([UInt8]([0x7E, 0x7F, 0x09, 0x01]), [SoundModuleCommand.reset(.gm)]),
            ([0x7E, 0x10, 0x09, 0x03], [.reset(.gm2)]),
            ([0x7E, 0x7F, 0x09, 0x02], [.generalMIDIOff]),
            ([0x7F, 0x7F, 0x04, 0x02, 0x00, 0x40], [.masterPan(0)]),
            ([0x7F, 0x7F, 0x04, 0x03, 0x00, 0x60], [.masterFineTune(cents: 50)]),
            ([0x7F, 0x7F, 0x04, 0x04, 0x00, 0x34], [.masterKeyShift(semitones: -12)]),
        ])
    func universalMessages(message: [UInt8], expected: [SoundModuleCommand]) {
        #expect(SoundModuleCommand.commands(in: message) == expected)
    }

    @Test func wrongChecksumIsReportedAndNothingElse() {
        var message = Self.gs([0x40, 0x00, 0x7F], [0x00])
        message[message.count - 1] = (message[message.count - 1] + 1) & 0x7F
        #expect(SoundModuleCommand.commands(in: message) == [.badChecksum])
    }

    /// Cut-off messages, every prefix of real ones, absurd lengths and random bytes behind real
    /// headers: decoded to something or nothing, never a trap, and in time linear in the length.
    @Test func hostileMessagesDecodeWithoutTrapping() {
        let real: [[UInt8]] = [
            Self.gs([0x40, 0x1A, 0x15], [0x01]), Self.gs([0x40, 0x00, 0x00], [0x00, 0x04, 0x00, 0x00]),
            [0x43, 0x10, 0x4C, 0x08, 0x00, 0x07, 0x01], [0x7F, 0x7F, 0x04, 0x01, 0x7F, 0x7F], [0x7E, 0x7F, 0x09, 0x03],
        ]
        for message in real {
            for length in 0...message.count { _ = SoundModuleCommand.commands(in: message.prefix(length)) }
        }
        var random = SeededRandom(seed: 0x5C5)
        for header in [[0x41, 0x10, 0x42, 0x12], [0x43, 0x10, 0x4C], [0x7F, 0x7F, 0x04], [0x7E, 0x7F, 0x09]] as [[UInt8]] {
            for _ in 0..<2000 {
                let body = (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                for command in SoundModuleCommand.commands(in: header + body) {
                    switch command {
                    case .partDrumMode(let part, _), .partKeyShift(let part, _), .partController(let part, _, _):
                        #expect((0..<64).contains(part))
                    case .partReceiveChannel(let part, let channel):
                        #expect((0..<64).contains(part) && (channel.map { (0..<64).contains($0) } ?? true))
                    case .masterFineTune(let cents):
                        #expect(abs(cents) <= 100)
                    case .masterKeyShift(let semitones):
                        #expect(abs(semitones) <= 24)
                    default:
                        break
                    }
                }
            }
        }
        // A data set of 65,000 bytes writes 65,000 addresses, once each.
        let huge = Self.gs([0x40, 0x10, 0x00], [UInt8](repeating: 0x01, count: 65_000))
        #expect(SoundModuleCommand.commands(in: huge).count < 65_000)
    }
}
