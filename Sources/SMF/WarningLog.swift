/// Warnings gathered while reading one file, bounded in number.
struct WarningLog {
    let policy: SMFReadingPolicy
    private(set) var warnings: [SMFWarning] = []
    private(set) var omittedCount = 0

    init(policy: SMFReadingPolicy) {
        self.policy = policy
    }

    mutating func add(_ warning: SMFWarning) throws(SMFError) {
        if policy.rejectsWarnings { throw .rejected(warning) }
        keep(warning)
    }

    /// Adds the warnings of a track read on its own; they passed the policy there.
    mutating func add(contentsOf other: WarningLog) {
        omittedCount += other.omittedCount
        other.warnings.forEach { keep($0) }
    }

    private mutating func keep(_ warning: SMFWarning) {
        if warnings.count < policy.maximumWarnings {
            warnings.append(warning)
        } else {
            omittedCount += 1
        }
    }
}
