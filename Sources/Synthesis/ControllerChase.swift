import SMF

/// A channel's controllers, program, pitch bend and channel pressure as the events before a seek's
/// target leave them: for each, the last event that set it.
///
/// Each of these events sets a value and nothing else, so the last one stands for all before it,
/// provided the ones kept are replayed in the song's order: reset all controllers (121) resets
/// what came before it and not what came after. A program change also reads the bank select
/// controllers, so the ones in force when it came are kept with it. The data entry controllers
/// are left to ``ParameterChase``: what they do depends on the parameter selected.
struct ControllerChase {
    /// The last event of each controller, by number.
    private var controllers = [OrderedMessage?](repeating: nil, count: 128)
    private var program: OrderedMessage?
    /// The bank select events in force at the last program change, by controller (0 and 32).
    private var bankAtProgram: [Int: OrderedMessage] = [:]
    private var pitchBend: OrderedMessage?
    private var channelPressure: OrderedMessage?

    /// Takes a controller change, program change, channel pressure or pitch bend, the event at
    /// `order` in the song, on `channel` (0–63).
    mutating func record(_ event: TrackEvent, channel: Int, order: Int) {
        let status = event.status & 0xF0
        let message = OrderedMessage(order: order, status: status, channel: channel, data1: event.data1, data2: event.data2)
        switch status {
        case 0xB0:
            controllers[Int(event.data1 & 0x7F)] = message
        case 0xC0:
            program = message
            bankAtProgram = [0: controllers[0], 32: controllers[32]].compactMapValues { $0 }
        case 0xD0:
            channelPressure = message
        case 0xE0:
            pitchBend = message
        default:
            break
        }
    }

    /// The events kept, in no particular order (the plan sorts them).
    func appendMessages(to messages: inout [OrderedMessage]) {
        messages.append(contentsOf: (controllers + [program, pitchBend, channelPressure]).compactMap { $0 })
        // A bank select still the last of its controller is in already.
        for (number, bank) in bankAtProgram where controllers[number]?.order != bank.order {
            messages.append(bank)
        }
    }
}
