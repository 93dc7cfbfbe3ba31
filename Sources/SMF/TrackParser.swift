/// Reads the events of one `MTrk` chunk in a single pass over its bytes,
/// handing each to a visitor as it is found.
struct TrackParser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The chunk's body, as absolute offsets into `bytes`.
    let body: Range<Int>
    /// Whether the end of the file, not the chunk's declared length, ends `body`.
    let isCutByEndOfFile: Bool
    /// The track's number in messages (1-based).
    let number: Int

    /// Parses the track, giving `visitor` every event in file order; returns
    /// the track's warnings. An error ends the track: events before it were visited.
    func parse<Visitor: TrackEventVisitor>(policy: SMFReadingPolicy, into visitor: inout Visitor) throws(SMFError) -> WarningLog {
        var log = WarningLog(policy: policy)
        var failure: SMFError?
        var endOfTrack: Int?
        var isCutOff = false
        var highDataBytes = Occurrences()
        // Stray system messages by status byte; empty, so never allocated, in a well-formed file.
        var strayMessages: [UInt8: Occurrences] = [:]
        var resumedRunningStatus = Occurrences()
        // Where the last skipped message ended, and the tick of the last event kept before it;
        // out here, not in `scan`, the loop over a well-formed file keeps them out of its registers.
        var skippedEnd = -1
        var keptTick: UInt32 = 0
        // One nested function for the pass, so that every way out of it is a `return`. The visitor
        // is its parameter (and `visitPayload`'s), not a capture: a first index ran 1.5 % fewer
        // instructions (callgrind).
        func scan(_ visitor: inout Visitor) {
            var pos = body.lowerBound
            let end = body.upperBound
            var tick: UInt32 = 0
            var running: UInt8 = 0
            // The running status a system exclusive or escape event ended, for a track that goes on using it.
            var endedRunning: UInt8 = 0

            func warn(_ warning: SMFWarning) -> Bool {
                do throws(SMFError) {
                    try log.add(warning)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }

            /// A variable-length quantity of at most 4 bytes at `pos`, which moves past it;
            /// `nil` once the failure is recorded (cut off, or longer than 4 bytes).
            func variableLengthQuantity(eventStart: Int) -> UInt32? {
                let start = pos
                var value: UInt32 = 0
                while true {
                    guard pos < end else {
                        fail(.truncatedEvent(offset: eventStart, track: number), cutOffAt: eventStart)
                        return nil
                    }
                    let byte = bytes[pos]
                    pos += 1
                    value = value << 7 | UInt32(byte & 0x7F)
                    if byte < 0x80 { return value }
                    if pos - start == 4 {
                        fail(.variableLengthQuantityTooLong(offset: start, track: number), cutOffAt: eventStart)
                        return nil
                    }
                }
            }

            /// The delta time at `pos`, read without moving past it; `nil` when it is not
            /// whole (the loop reports why when it gets there).
            func nextDelta() -> UInt32? {
                var value: UInt32 = 0
                for index in pos..<min(end, pos + 4) {
                    value = value << 7 | UInt32(bytes[index] & 0x7F)
                    if bytes[index] < 0x80 { return value }
                }
                return nil
            }

            /// Gives the visitor a system exclusive, escape or meta event; `false` once the failure is recorded.
            func visitPayload(status: UInt8, metaType: UInt8, _ payload: Range<Int>, eventStart: Int, into visitor: inout Visitor) -> Bool {
                do throws(SMFError) {
                    try visitor.visitPayloadEvent(
                        tick: tick, status: status, metaType: metaType,
                        payload: UnsafeBufferPointer(rebasing: bytes[payload]), offset: eventStart)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }

            func fail(_ error: SMFError, cutOffAt offset: Int) {
                if isCutByEndOfFile, case .truncatedEvent = error {
                    isCutOff = true
                    _ = warn(.trackCutOff(track: number, offset: offset))
                } else {
                    failure = error
                }
            }

            while pos < end {
                let eventStart = pos
                // Delta time; most are one byte.
                var delta = UInt32(bytes[pos])
                if delta < 0x80 {
                    pos += 1
                } else {
                    guard let value = variableLengthQuantity(eventStart: eventStart) else { return }
                    delta = value
                }
                let (sum, overflow) = tick.addingReportingOverflow(delta)
                guard !overflow else { return fail(.trackTooLong(offset: eventStart, track: number), cutOffAt: eventStart) }
                tick = sum

                guard pos < end else { return fail(.truncatedEvent(offset: eventStart, track: number), cutOffAt: eventStart) }
                var status = bytes[pos]
                if status >= 0x80 {
                    pos += 1
                } else if running != 0 {
                    status = running
                } else if endedRunning != 0 {
                    resumedRunningStatus.add(at: pos)
                    status = endedRunning
                } else {
                    return fail(.missingStatus(byte: status, offset: pos, track: number), cutOffAt: eventStart)
                }

                if status < 0xF0 {
                    let dataLength = TrackEvent.dataLength(ofChannelStatus: status)
                    guard end - pos >= dataLength else { return fail(.truncatedEvent(offset: eventStart, track: number), cutOffAt: eventStart) }
                    let data1 = bytes[pos]
                    let data2 = dataLength == 2 ? bytes[pos + 1] : 0
                    if (data1 | data2) >= 0x80 {
                        highDataBytes.add((data1 >= 0x80 ? 1 : 0) + (data2 >= 0x80 ? 1 : 0), at: data1 >= 0x80 ? pos : pos + 1)
                    }
                    pos += dataLength
                    running = status
                    visitor.visitChannelMessage(tick: tick, status: status, data1: data1, data2: data2)
                    continue
                }

                var metaType: UInt8 = 0
                switch status {
                case 0xFF:
                    guard pos < end else { return fail(.truncatedEvent(offset: eventStart, track: number), cutOffAt: eventStart) }
                    metaType = bytes[pos]
                    pos += 1
                case 0xF0, 0xF7:
                    if running != 0 { endedRunning = running }
                    running = 0
                default:
                    // A message from a live stream, recorded as it came: skip it and the
                    // data bytes its status takes, as many of them as there are.
                    let statusOffset = pos - 1
                    strayMessages[status, default: Occurrences()].add(at: statusOffset)
                    let dataEnd = min(end, pos + SystemStatus.dataLength(of: status))
                    while pos < dataEnd, bytes[pos] < 0x80 { pos += 1 }
                    if eventStart != skippedEnd { keptTick = tick - delta }
                    // A track's events are at most a delta time apart, or it could not be written:
                    // where skipping would leave more between two events, the message is kept
                    // as an escape event, the way a file may hold one.
                    if let next = nextDelta(), UInt64(tick) + UInt64(next) - UInt64(keptTick) > UInt64(Track.maximumDelta) {
                        guard visitPayload(status: 0xF7, metaType: 0, statusOffset..<pos, eventStart: eventStart, into: &visitor) else { return }
                    } else {
                        skippedEnd = pos
                    }
                    continue
                }
                guard let declaredLength = variableLengthQuantity(eventStart: eventStart) else { return }
                let length = Int(declaredLength)
                guard end - pos >= length else { return fail(.truncatedEvent(offset: eventStart, track: number), cutOffAt: eventStart) }
                if status == 0xFF, let expected = MetaEvent.expectedLength(ofType: metaType), expected != length,
                    !(metaType == 0x00 && length == 0)
                {
                    guard warn(.metaLengthMismatch(type: metaType, length: length, offset: eventStart, track: number)) else { return }
                }
                if status == 0xFF, metaType == 0x51, length == 3, bytes[pos] | bytes[pos + 1] | bytes[pos + 2] == 0 {
                    guard warn(.zeroTempo(offset: eventStart, track: number)) else { return }
                }
                guard visitPayload(status: status, metaType: metaType, pos..<pos + length, eventStart: eventStart, into: &visitor) else { return }
                pos += length
                if status == 0xFF, metaType == 0x2F {
                    endOfTrack = pos
                    return
                }
            }
        }
        scan(&visitor)
        if let failure { throw failure }
        // Counted warnings, in the order of their first occurrence.
        var counted: [(first: Int, warning: SMFWarning)] = strayMessages.map { status, stray in
            (stray.first, .straySystemMessages(status: status, track: number, count: stray.count, offset: stray.first))
        }
        if resumedRunningStatus.count > 0 {
            counted.append(
                (
                    resumedRunningStatus.first,
                    .runningStatusAfterSystemExclusive(track: number, count: resumedRunningStatus.count, offset: resumedRunningStatus.first)
                ))
        }
        if highDataBytes.count > 0 {
            counted.append((highDataBytes.first, .dataBytesAbove127(track: number, count: highDataBytes.count, offset: highDataBytes.first)))
        }
        for (_, warning) in counted.sorted(by: { $0.first < $1.first }) { try log.add(warning) }
        if let endOfTrack {
            if endOfTrack < body.upperBound {
                try log.add(.dataAfterEndOfTrack(track: number, count: body.upperBound - endOfTrack))
            }
        } else if !isCutOff {
            try log.add(.missingEndOfTrack(track: number))
        }
        return log
    }
}
