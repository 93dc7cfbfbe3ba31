extension Track {
    /// The track as ``SMFWriter`` writes it: the same music, in a form a strict reader reads
    /// without a warning. This track itself when it already is.
    ///
    /// A damaged file read leniently keeps what a valid file cannot hold, and so may a track
    /// built by hand: no End of Track, or one with data or before other events; data bytes above
    /// 127; meta events the reader keeps uninterpreted (a length that does not fit their type, a
    /// tempo of 0). Written as they are, they make a file the strict reader (smfplay's own)
    /// refuses. So End of Track events are left out and one, without data, ends the track at its
    /// last tick; data bytes keep the 7 bits that are played; uninterpreted meta events, which
    /// nothing plays or shows, are left out. Where leaving events out would put two events
    /// further apart than a delta can say (``maximumDelta``), an empty escape event, which sends
    /// nothing, keeps the time in the place of one of them, as the reader keeps a stray message.
    var writable: Track {
        guard !isWritable else { return self }
        var written = Track()
        // The ticks of the events left out since the last one written.
        var leftOut: [UInt32] = []
        func keepTime(until tick: UInt32) {
            while tick - written.lengthInTicks > Self.maximumDelta {
                // Consecutive events are at most a delta apart, so one left out is within reach.
                let bridge = leftOut.last { $0 - written.lengthInTicks <= Self.maximumDelta }!
                written.append(.escapedBytes([]), atTick: bridge)
            }
            leftOut.removeAll()
        }
        for event in events {
            if isEndOfTrack(event) || !meansSomething(event) {
                leftOut.append(event.tick)
                continue
            }
            keepTime(until: event.tick)
            if event.isChannelMessage {
                written.append(message(of: event), atTick: event.tick)
            } else {
                written.appendPayloadEvent(
                    status: event.status, metaType: payloads[event.payloadIndex].metaType, bytes: payload(of: event), tick: event.tick)
            }
        }
        keepTime(until: lengthInTicks)
        written.append(.meta(.endOfTrack), atTick: lengthInTicks)
        return written
    }

    /// Whether the track already is as ``writable`` would make it.
    private var isWritable: Bool {
        guard let last = events.last, isEndOfTrack(last), payloads[last.payloadIndex].count == 0 else { return false }
        return events.dropLast().allSatisfy { event in
            event.isChannelMessage ? (event.data1 | event.data2) < 0x80 : !isEndOfTrack(event) && meansSomething(event)
        }
    }

    private func isEndOfTrack(_ event: TrackEvent) -> Bool {
        metaType(of: event) == 0x2F
    }

    /// False for a meta event the reader keeps uninterpreted, with a warning.
    private func meansSomething(_ event: TrackEvent) -> Bool {
        guard let type = metaType(of: event) else { return true }
        switch MetaEvent(type: type, data: payload(of: event)) {
        case .unknown(let type, _): return MetaEvent.expectedLength(ofType: type) == nil
        case .tempo(let microseconds): return microseconds != 0
        default: return true
        }
    }
}
