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
        var highDataBytes = 0
        var firstHighDataByte = 0
        // One nested function for the pass, so that every way out of it is a `return`.
        func scan() {
            var pos = body.lowerBound
            let end = body.upperBound
            var tick: UInt32 = 0
            var running: UInt8 = 0

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
                } else {
                    return fail(.missingStatus(byte: status, offset: pos, track: number), cutOffAt: eventStart)
                }

                if status < 0xF0 {
                    let dataLength = TrackEvent.dataLength(ofChannelStatus: status)
                    guard end - pos >= dataLength else { return fail(.truncatedEvent(offset: eventStart, track: number), cutOffAt: eventStart) }
                    let data1 = bytes[pos]
                    let data2 = dataLength == 2 ? bytes[pos + 1] : 0
                    if (data1 | data2) >= 0x80 {
                        if highDataBytes == 0 { firstHighDataByte = data1 >= 0x80 ? pos : pos + 1 }
                        highDataBytes += (data1 >= 0x80 ? 1 : 0) + (data2 >= 0x80 ? 1 : 0)
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
                    running = 0
                default:
                    return fail(.undefinedStatus(byte: status, offset: pos - 1, track: number), cutOffAt: eventStart)
                }
                guard let declaredLength = variableLengthQuantity(eventStart: eventStart) else { return }
                let length = Int(declaredLength)
                guard end - pos >= length else { return fail(.truncatedEvent(offset: eventStart, track: number), cutOffAt: eventStart) }
                if status == 0xFF, let expected = MetaEvent.expectedLength(ofType: metaType), expected != length,
                   !(metaType == 0x00 && length == 0) {
                    guard warn(.metaLengthMismatch(type: metaType, length: length, offset: eventStart, track: number)) else { return }
                }
                if status == 0xFF, metaType == 0x51, length == 3, bytes[pos] | bytes[pos + 1] | bytes[pos + 2] == 0 {
                    guard warn(.zeroTempo(offset: eventStart, track: number)) else { return }
                }
                do throws(SMFError) {
                    try visitor.visitPayloadEvent(tick: tick, status: status, metaType: metaType,
                                                  payload: UnsafeBufferPointer(rebasing: bytes[pos..<pos + length]), offset: eventStart)
                } catch {
                    failure = error
                    return
                }
                pos += length
                if status == 0xFF, metaType == 0x2F {
                    endOfTrack = pos
                    return
                }
            }
        }
        scan()
        if let failure { throw failure }
        if highDataBytes > 0 {
            try log.add(.dataBytesAbove127(track: number, count: highDataBytes, offset: firstHighDataByte))
        }
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
