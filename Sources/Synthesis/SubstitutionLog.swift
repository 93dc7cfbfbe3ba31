/// The distinct preset substitutions of a song, recorded on the audio thread: room for a fixed
/// number is made once, and any beyond it are not kept.
struct SubstitutionLog {
    static let capacity = 32
    private var kept: [PresetSubstitution] = []

    init() {
        kept.reserveCapacity(Self.capacity)
    }

    /// By index, not `contains`: its iterator allocates in unoptimized builds.
    mutating func record(_ substitution: PresetSubstitution) {
        guard kept.count < Self.capacity else { return }
        for index in kept.indices where kept[index] == substitution { return }
        kept.append(substitution)
    }

    var entries: [PresetSubstitution] { kept }
}
