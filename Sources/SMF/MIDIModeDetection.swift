/// Which standard a song was written for, told from what it says about itself, and why.
///
/// A reset message says it outright: the last one before the first note is the one the song
/// plays under (files often send GM System On and then a GS reset or XG System On, so that a
/// module of either kind starts clean). Without one, messages only one kind of module reads (a
/// GS data set, an XG parameter change) or bank numbers only one standard gives a meaning (XG
/// drum kits at 126 and 127, GM2 banks at 120 and 121) tell. Otherwise the song is plain GM.
public struct MIDIModeDetection: Codable, Hashable, Sendable {
    public var mode: MIDIMode
    /// What decided it, for `info`: "GS reset at 0:00.00", "bank 127 on channel 1 (an XG drum kit)".
    public var reason: String
    /// Roland messages with a wrong checksum: a Sound Canvas ignores them, and so does smfplay.
    public var badChecksums: [BadChecksum]

    /// A system exclusive message ignored for its checksum.
    public struct BadChecksum: Codable, Hashable, Sendable {
        public var track: Int
        public var seconds: Double
    }

    public init(song: Song) {
        self.init(song: song, scan: ChannelMessageScan(song: song))
    }

    /// The detection from `scan`, the pass over `song`'s channel messages that its summary makes
    /// too (see ``SongSummary``): the system exclusive messages are found among the few events with
    /// bytes of their own.
    init(song: Song, scan: ChannelMessageScan) {
        var resets: [(tick: UInt64, track: Int, mode: MIDIMode)] = []
        let firstNote = scan.firstNoteTick
        var family: (gs: UInt64?, xg: UInt64?) = (nil, nil)
        var bank: (xg: (tick: UInt64, channel: UInt8, value: UInt8)?, gm2: (tick: UInt64, channel: UInt8, value: UInt8)?) = (nil, nil)
        var badChecksums: [(tick: UInt64, track: Int)] = []
        // Track by track, each in file order, as the selections are.
        for selection in scan.selections {
            let (event, tick) = (selection.event, selection.place.tick)
            guard event.status & 0xF0 == 0xB0, event.data1 & 0x7F == 0 else { continue }
            let value = event.data2 & 0x7F
            let isXGKit = value >= 126 && event.channel != GeneralMIDI.percussionChannel
            if isXGKit, bank.xg.map({ tick < $0.tick }) ?? true { bank.xg = (tick, event.channel, value) }
            if value == 120 || value == 121, bank.gm2.map({ tick < $0.tick }) ?? true { bank.gm2 = (tick, event.channel, value) }
        }
        for (index, track) in song.file.tracks.enumerated() {
            let start = song.timeline.trackStartTicks[index]
            for position in track.payloadEventIndices where track.events[position].status == 0xF0 {
                let event = track.events[position]
                let tick = start + UInt64(event.tick)
                let payload = track.payload(of: event)
                guard payload.last == 0xF7 else { continue }
                let message = payload.dropLast()
                if message.first == 0x41 { family.gs = min(family.gs ?? .max, tick) }
                if message.first == 0x43 { family.xg = min(family.xg ?? .max, tick) }
                SoundModuleCommand.decode(message) { command in
                    switch command {
                    case .reset(let mode): resets.append((tick, index, mode))
                    case .badChecksum: badChecksums.append((tick, index))
                    default: break
                    }
                }
            }
        }
        let seconds = { (tick: UInt64) in song.tempoMap.seconds(atTick: tick) }
        self.badChecksums = badChecksums.sorted { $0.tick < $1.tick }.map { BadChecksum(track: $0.track + 1, seconds: seconds($0.tick)) }
        // Sorted by time, then track: the order a player meets them in.
        let ordered = resets.sorted { ($0.tick, $0.track) < ($1.tick, $1.track) }
        if let reset = ordered.last(where: { $0.tick <= firstNote }) ?? ordered.first {
            mode = reset.mode
            reason = "\(Self.resetName(reset.mode)) at \(Self.time(seconds(reset.tick)))"
        } else if let tick = family.gs, family.xg.map({ tick <= $0 }) ?? true {
            mode = .gs
            reason = "Roland GS messages from \(Self.time(seconds(tick)))"
        } else if let tick = family.xg {
            mode = .xg
            reason = "Yamaha XG messages from \(Self.time(seconds(tick)))"
        } else if let xg = bank.xg, bank.gm2.map({ xg.tick <= $0.tick }) ?? true {
            mode = .xg
            reason = "bank \(xg.value) on channel \(xg.channel + 1) (an XG \(xg.value == 127 ? "drum" : "SFX") kit)"
        } else if let gm2 = bank.gm2 {
            mode = .gm2
            reason = "bank \(gm2.value) on channel \(gm2.channel + 1) (a GM2 \(gm2.value == 120 ? "drum" : "melodic") bank)"
        } else {
            mode = .gm
            reason = "no GS, XG or GM2 messages"
        }
    }

    private static func resetName(_ mode: MIDIMode) -> String {
        switch mode {
        case .gm: "GM System On"
        case .gs: "GS reset"
        case .xg: "XG System On"
        case .gm2: "GM2 System On"
        }
    }

    /// Minutes, seconds and hundredths: "1:02.50".
    public static func time(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100).rounded())
        let minutes = hundredths / 6000
        let rest = hundredths % 6000
        let whole = rest / 100
        let fraction = rest % 100
        return "\(minutes):\(whole < 10 ? "0" : "")\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
