/// A call a client makes on smfplay's MPRIS object to ask something of the player: one of its
/// methods, or setting one of its writable properties. The bus connection decodes every incoming
/// call through it; fuzzing feeds it arbitrary arguments (`make fuzz`, target `mpris`).
public enum MediaPlayerCall: Hashable, Sendable {
    case method(String)
    case settingProperty(String)

    /// Every method and writable property of the object's two interfaces.
    public static let all: [MediaPlayerCall] = (MPRISObject.rootMembers + MPRISObject.playerMembers).compactMap { member in
        switch member {
        case .method(let name, _, _, _): .method(name)
        case .property(let name, _, _, let writable): writable ? .settingProperty(name) : nil
        case .signal: nil
        }
    }

    /// What the call asks for, its arguments read as its signature says; nil when it asks nothing
    /// of the player (Raise, or a member the object does not have).
    public func request(arguments: some CallArguments) throws(MediaPlayerCallError) -> MediaPlayerRequest? {
        switch self {
        case .method(let name): try MPRISObject.request(forMethod: name, arguments: arguments)
        case .settingProperty(let name): try MPRISObject.request(settingProperty: name, arguments: arguments)
        }
    }
}
