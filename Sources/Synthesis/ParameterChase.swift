/// What data entry did on one channel before a seek's target, and the messages that do it again.
///
/// Data entry (controller 6, with 38 as its fine part) sets whichever parameter was selected last,
/// by controllers 101 and 100 (a registered parameter, RPN) or 99 and 98 (a non-registered one,
/// NRPN), so its events cannot be thinned like other controllers'. This follows FluidSynth 2.3,
/// which acts on the registered parameters 0–5 (pitch-bend range, fine and coarse tuning, tuning
/// program and bank, modulation depth range) and on the SoundFont NRPNs (99 = 120), whose 98s add
/// up to the number of the generator that data entry then sets. It keeps the last value given to
/// each of those parameters and gives them again in the order they were last given, then brings
/// the data entry and selection controllers back to their values at the target, with the hidden
/// state FluidSynth keeps for them (which kind of parameter is selected, the generator number),
/// through a selection under which data entry sets nothing.
struct ParameterChase {
    /// The controllers whose events go here rather than to ``ControllerChase``.
    static func handles(controller: UInt8) -> Bool {
        switch controller & 0x7F {
        case 6, 38, 98...101: true
        default: false
        }
    }

    /// What a data entry can set.
    private enum Parameter: Hashable {
        case registered(UInt8)
        case generator(Int)
    }

    /// The value last given to a parameter.
    private struct Entry {
        var order: Int
        var coarse: UInt8
        var fine: UInt8
        /// For the tuning program: the tuning bank it was chosen in, which FluidSynth reads with it.
        var tuningBank: UInt8?
    }

    /// FluidSynth sets generators 0 to 62; any selection from here on sets nothing.
    private static let generatorLimit = 100
    /// Registered parameters 0–5 are the ones General MIDI 2 defines.
    private static let registeredLimit: UInt8 = 6
    private static let tuningProgram: UInt8 = 3
    private static let tuningBank: UInt8 = 4
    /// The controller values after a reset: data entry 0, both selections "null".
    private static let null: UInt8 = 127

    private var dataCoarse: UInt8 = 0
    private var dataFine: UInt8 = 0
    private var registeredMSB = null
    private var registeredLSB = null
    private var nonRegisteredMSB = null
    private var nonRegisteredLSB = null
    /// Whether 99 or 98 came after 101 and 100: data entry then goes to the NRPN.
    private var isNonRegisteredSelected = false
    /// FluidSynth's generator number, the sum of the 98s under 99 = 120.
    private var generatorSelection = 0
    private var currentTuningBank: UInt8 = 0
    /// Whether any of these controllers came since the last reset: if none did, there is nothing to send.
    private var isTouched = false
    private var entries: [Parameter: Entry] = [:]

    /// Takes an event of one of the controllers that ``handles(controller:)``.
    mutating func record(controller: UInt8, value: UInt8, order: Int) {
        let value = value & 0x7F
        isTouched = true
        switch controller & 0x7F {
        case 101:
            registeredMSB = value
            isNonRegisteredSelected = false
        case 100:
            registeredLSB = value
            isNonRegisteredSelected = false
        case 99:
            nonRegisteredMSB = value
            nonRegisteredLSB = 0
            generatorSelection = 0
            isNonRegisteredSelected = true
        case 98:
            nonRegisteredLSB = value
            if nonRegisteredMSB == 120 { generatorSelection = min(generatorSelection + Self.generatorStep(value), 1 << 30) }
            isNonRegisteredSelected = true
        case 38:
            dataFine = value
        case 6:
            dataCoarse = value
            enterData(order: order)
        default:
            break
        }
    }

    /// What reset all controllers (121) does to these in FluidSynth: data entry 0, no selection,
    /// and the generators (the fine and coarse tuning among them) back to the instrument's own.
    mutating func resetControllers() {
        dataCoarse = 0
        dataFine = 0
        registeredMSB = Self.null
        registeredLSB = Self.null
        nonRegisteredMSB = Self.null
        nonRegisteredLSB = Self.null
        isNonRegisteredSelected = false
        generatorSelection = 0
        entries = entries.filter { parameter, _ in
            switch parameter {
            case .registered(let number): number != 1 && number != 2
            case .generator: false
            }
        }
    }

    private mutating func enterData(order: Int) {
        if isNonRegisteredSelected {
            guard nonRegisteredMSB == 120, nonRegisteredLSB < 100 else { return }
            if generatorSelection < Self.generatorLimit {
                entries[.generator(generatorSelection)] = Entry(order: order, coarse: dataCoarse, fine: dataFine)
            }
            generatorSelection = 0
        } else if registeredMSB == 0, registeredLSB < Self.registeredLimit {
            if registeredLSB == Self.tuningBank { currentTuningBank = dataCoarse }
            entries[.registered(registeredLSB)] = Entry(
                order: order, coarse: dataCoarse, fine: dataFine,
                tuningBank: registeredLSB == Self.tuningProgram ? currentTuningBank : nil)
        }
    }

    /// How much an NRPN LSB under 99 = 120 adds to FluidSynth's generator number.
    private static func generatorStep(_ value: UInt8) -> Int {
        switch value {
        case 0..<100: Int(value)
        case 100: 100
        case 101: 1000
        case 102: 10_000
        default: 0
        }
    }

    /// The messages that set the parameters and controllers again on a reset channel; nothing if
    /// the channel was left as reset.
    func messages(channel: Int) -> [SeekPlan.Message] {
        guard isTouched else { return [] }
        var messages: [SeekPlan.Message] = []
        func control(_ number: UInt8, _ value: UInt8) {
            messages.append(.channel(status: 0xB0, channel: UInt8(channel), data1: number, data2: value))
        }
        func enter(_ entry: Entry) {
            control(38, entry.fine)
            control(6, entry.coarse)
        }
        for (parameter, entry) in entries.sorted(by: { $0.value.order < $1.value.order }) {
            switch parameter {
            case .registered(let number):
                control(101, 0)
                if let bank = entry.tuningBank {
                    control(100, Self.tuningBank)
                    enter(Entry(order: entry.order, coarse: bank, fine: 0))
                }
                control(100, number)
            case .generator(let number):
                control(99, 120)
                control(98, UInt8(number))
            }
            enter(entry)
        }
        // Data entry under the null RPN sets nothing.
        control(101, Self.null)
        control(100, Self.null)
        control(6, dataCoarse)
        control(38, dataFine)
        if isNonRegisteredSelected {
            control(101, registeredMSB)
            control(100, registeredLSB)
            appendNonRegisteredSelection(control: control)
        } else {
            appendNonRegisteredSelection(control: control)
            control(101, registeredMSB)
            control(100, registeredLSB)
        }
        return messages
    }

    /// Selects the NRPN with FluidSynth's generator number as it was.
    private func appendNonRegisteredSelection(control: (UInt8, UInt8) -> Void) {
        control(99, nonRegisteredMSB)
        // Under any other 99, the 98s add nothing and the generator number is 0.
        guard nonRegisteredMSB == 120 else {
            control(98, nonRegisteredLSB)
            return
        }
        let last = Self.generatorStep(nonRegisteredLSB)
        guard generatorSelection >= last else {
            // A data entry has set the generator number back to 0 since the last 98 (which is
            // below 100): select past the generators with it, and let a data entry, which then
            // sets nothing, set the number back to 0 again.
            control(98, 100)
            control(98, nonRegisteredLSB)
            control(6, dataCoarse)
            return
        }
        // Past the generators every number acts alike, so 100 (which adds 100) makes up any rest.
        let rest = min(generatorSelection - last, Self.generatorLimit)
        if rest > 0 { control(98, UInt8(rest)) }
        control(98, nonRegisteredLSB)
    }
}
