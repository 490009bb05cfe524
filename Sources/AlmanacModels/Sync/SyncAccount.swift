/// Who the daemon syncs as, and where: everything but the password, which the secrets
/// store keeps (`SyncSecrets`).
public struct SyncAccount: Sendable, Hashable, Codable {
    /// The server's base URL (`https://gpodder.net`, `https://cloud.example/` for Nextcloud),
    /// without a trailing slash and without credentials.
    public var server: String
    public var user: String
    /// This computer's device ID on the server (`[A-Za-z0-9_.-]`, as the API requires).
    public var device: String
    /// The device's name as the server's web pages show it.
    public var caption: String
    public var flavour: SyncFlavour

    public init(server: String, user: String, device: String, caption: String, flavour: SyncFlavour) {
        self.server = server
        self.user = user
        self.device = device
        self.caption = caption
        self.flavour = flavour
    }
}
