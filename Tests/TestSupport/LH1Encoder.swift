/// LHarc 1's `-lh1-` compression, for tests of the readers of the LZH archives Japanese MIDI sites
/// offered from 1988 to 1990: LZSS over a 4 KB window (copies of 3 to 60 bytes from up to 4,036
/// back, as LHarc's window kept 60 bytes ahead), the bytes and copy lengths sent through the
/// adaptive Huffman tree of ``LH1AdaptiveTree``, a copy's distance less one in 12 bits, its top six
/// in LHarc's fixed code (3 to 8 bits) and its low six as they are. Bits go out from the most
/// significant; the last byte is padded with zeros.
///
/// The matches are found greedily through chains of earlier places with the same 3 bytes: what an
/// encoder picks is its own business, any choice decodes the same.
public enum LH1Encoder {
    static let window = 4096
    static let longestCopy = 60
    static let shortestCopy = 3
    /// LHarc kept the 60 bytes ahead in its 4 KB ring, so it copied from no farther back than this.
    static let farthestCopy = window - longestCopy
    /// How many earlier places with the same 3 bytes are tried for a copy.
    static let chainLimit = 256

    /// `data` compressed as LHarc 1 compressed a member (`-lh1-`).
    public static func encode(_ data: [UInt8]) -> [UInt8] {
        var tree = LH1AdaptiveTree()
        var bits = BitSink()
        var latest: [Int: Int] = [:]
        var previous = [Int](repeating: -1, count: data.count)
        func remember(_ place: Int) {
            guard place + shortestCopy <= data.count else { return }
            let key = Int(data[place]) << 16 | Int(data[place + 1]) << 8 | Int(data[place + 2])
            previous[place] = latest[key] ?? -1
            latest[key] = place
        }
        var place = 0
        while place < data.count {
            let (length, distance) = longestMatch(at: place, in: data, previous: previous, latest: latest)
            if length >= shortestCopy {
                bits.append(tree.send(256 + length - shortestCopy))
                let offset = distance - 1
                bits.append(positionCode[offset >> 6])
                bits.append(offset & 0x3F, count: 6)
                for copied in place..<place + length { remember(copied) }
                place += length
            } else {
                bits.append(tree.send(Int(data[place])))
                remember(place)
                place += 1
            }
        }
        return bits.bytes
    }

    /// The longest copy for the bytes at `place` from the places before it with the same first 3.
    private static func longestMatch(at place: Int, in data: [UInt8], previous: [Int], latest: [Int: Int]) -> (length: Int, distance: Int) {
        guard place + shortestCopy <= data.count else { return (0, 0) }
        let key = Int(data[place]) << 16 | Int(data[place + 1]) << 8 | Int(data[place + 2])
        var best = (length: 0, distance: 0)
        var candidate = latest[key] ?? -1
        var tried = 0
        let longest = min(longestCopy, data.count - place)
        while candidate >= 0, place - candidate <= farthestCopy, tried < chainLimit {
            var length = 0
            while length < longest, data[candidate + length] == data[place + length] { length += 1 }
            if length > best.length { best = (length, place - candidate) }
            if length == longest { break }
            candidate = previous[candidate]
            tried += 1
        }
        return best
    }

    /// LHarc's fixed code of a distance's top six bits: 1 value in 3 bits, 3 in 4, 8 in 5, 12 in 6,
    /// 24 in 7 and 16 in 8, each the next of its length in counting order (LZHUF's `p_len` and
    /// `p_code` tables).
    static let positionCode: [[Bool]] = {
        var codes: [[Bool]] = []
        var code = 0
        for (length, count) in [(3, 1), (4, 3), (5, 8), (6, 12), (7, 24), (8, 16)] {
            for _ in 0..<count {
                codes.append((0..<length).map { code >> (7 - $0) & 1 == 1 })
                code += 1 << (8 - length)
            }
        }
        return codes
    }()

    /// Bits gathered into bytes, the first bit the most significant.
    private struct BitSink {
        private(set) var bytes: [UInt8] = []
        private var used = 8

        mutating func append(_ bits: [Bool]) {
            for bit in bits {
                if used == 8 {
                    bytes.append(0)
                    used = 0
                }
                if bit { bytes[bytes.count - 1] |= 0x80 >> UInt8(used) }
                used += 1
            }
        }

        mutating func append(_ value: Int, count: Int) {
            append((0..<count).map { value >> (count - 1 - $0) & 1 == 1 })
        }
    }
}
