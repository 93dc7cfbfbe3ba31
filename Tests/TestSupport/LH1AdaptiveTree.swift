/// The adaptive Huffman tree of LHarc 1's `-lh1-` method, as Okumura and Yoshizaki's LZHUF (1988),
/// from which LHarc came, keeps it: 314 codes (256 bytes, then copies of 3 to 60 bytes), each with
/// a count of the times it was sent; after each code its leaf's count and those of the nodes above
/// it go up by one, and a node whose count passes its neighbour's is swapped with the farthest node
/// of its old count, so that the tree stays ordered by count. When the root's count reaches 0x8000
/// the tree is rebuilt from the leaves with their counts halved.
///
/// Written from LZHUF's arrays (nodes ordered by count from the least, the root last) rather than
/// from liblhasa's decoder (the root first, nodes in groups of one count): the decoder is then
/// checked against the model LHarc wrote with, not against itself.
struct LH1AdaptiveTree {
    static let codeCount = 314
    /// Nodes: a leaf for each code and the nodes that join them.
    private static let nodeCount = codeCount * 2 - 1
    private static let root = nodeCount - 1
    private static let rebuildCount = 0x8000

    /// Each node's count, and a last one larger than any, so that a search for a larger count stops.
    private var counts: [Int]
    /// A node's children are `children[node]` and the one after it, or it is a leaf and this is
    /// its code plus `nodeCount`.
    private var children: [Int]
    /// Each node's parent, then (from `nodeCount` on) the node that is each code's leaf.
    private var parents: [Int]

    init() {
        let (codes, nodes) = (Self.codeCount, Self.nodeCount)
        counts = [Int](repeating: 0, count: nodes + 1)
        children = [Int](repeating: 0, count: nodes)
        parents = [Int](repeating: 0, count: nodes + codes)
        for code in 0..<codes {
            counts[code] = 1
            children[code] = code + nodes
            parents[code + nodes] = code
        }
        var child = 0
        for node in codes..<nodes {
            counts[node] = counts[child] + counts[child + 1]
            children[node] = child
            (parents[child], parents[child + 1]) = (node, node)
            child += 2
        }
        counts[nodes] = 0xFFFF
        parents[Self.root] = 0
    }

    /// The bits that send `code` now, from the root down (a node's second child is a 1); the tree
    /// then counts it.
    mutating func send(_ code: Int) -> [Bool] {
        var bits: [Bool] = []
        var node = parents[code + Self.nodeCount]
        repeat {
            bits.append(node & 1 == 1)
            node = parents[node]
        } while node != Self.root
        count(code)
        return bits.reversed()
    }

    private mutating func count(_ code: Int) {
        if counts[Self.root] == Self.rebuildCount { rebuild() }
        var node = parents[code + Self.nodeCount]
        repeat {
            counts[node] += 1
            let raised = counts[node]
            if raised > counts[node + 1] {
                // Swap with the farthest node of the old count, whose place this one now takes.
                var other = node + 1
                while raised > counts[other + 1] { other += 1 }
                counts[node] = counts[other]
                counts[other] = raised
                let moved = children[node]
                adopt(moved, by: other)
                let displaced = children[other]
                children[other] = moved
                adopt(displaced, by: node)
                children[node] = displaced
                node = other
            }
            node = parents[node]
        } while node != 0
    }

    /// Makes `node` the parent of `child` and its sibling, or of a leaf's code.
    private mutating func adopt(_ child: Int, by node: Int) {
        parents[child] = node
        if child < Self.nodeCount { parents[child + 1] = node }
    }

    /// The leaves gathered at the start with their counts halved (rounding up), then the nodes
    /// joining each pair put in among them where their count keeps the order.
    private mutating func rebuild() {
        let (codes, nodes) = (Self.codeCount, Self.nodeCount)
        var leaf = 0
        for node in 0..<nodes where children[node] >= nodes {
            counts[leaf] = (counts[node] + 1) / 2
            children[leaf] = children[node]
            leaf += 1
        }
        var child = 0
        for node in codes..<nodes {
            let count = counts[child] + counts[child + 1]
            var place = node - 1
            while count < counts[place] { place -= 1 }
            place += 1
            counts.replaceSubrange(place...node, with: [count] + counts[place..<node])
            children.replaceSubrange(place...node, with: [child] + children[place..<node])
            child += 2
        }
        for node in 0..<nodes {
            let child = children[node]
            parents[child] = node
            if child < nodes { parents[child + 1] = node }
        }
    }
}
