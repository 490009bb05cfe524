/// The objects a connection exports and the paths that are object managers.
struct ObjectRegistry: Sendable {
    private(set) var objects: [ObjectPath: [Interface]] = [:]
    private(set) var managers: Set<ObjectPath> = []

    func interfaces(at path: ObjectPath) -> [Interface]? { objects[path] }

    /// Adds interfaces at `path`, replacing ones of the same name; returns those that are new or replaced.
    mutating func add(_ interfaces: [Interface], at path: ObjectPath) {
        var current = objects[path] ?? []
        for interface in interfaces {
            if let index = current.firstIndex(where: { $0.name == interface.name }) {
                current[index] = interface
            } else {
                current.append(interface)
            }
        }
        objects[path] = current
    }

    /// Removes the object at `path` (or only the named interfaces); returns the names removed.
    mutating func remove(at path: ObjectPath, interfaces names: [InterfaceName]? = nil) -> [InterfaceName] {
        guard let current = objects[path] else { return [] }
        guard let names else {
            objects[path] = nil
            return current.map(\.name)
        }
        let kept = current.filter { !names.contains($0.name) }
        objects[path] = kept.isEmpty ? nil : kept
        return current.filter { names.contains($0.name) }.map(\.name)
    }

    mutating func addManager(_ path: ObjectPath) { managers.insert(path) }

    /// The object manager responsible for an object at `path`: the nearest manager strictly above it.
    func manager(for path: ObjectPath) -> ObjectPath? {
        var candidate = path.parent
        while let current = candidate {
            if managers.contains(current) { return current }
            candidate = current.parent
        }
        return nil
    }

    /// Whether anything is exported at or below `path` (so introspection has something to show).
    func isKnown(_ path: ObjectPath) -> Bool {
        objects[path] != nil || managers.contains(path) || objects.keys.contains { $0 != path && $0.isInside(path) }
    }

    /// The names of the nodes directly below `path` on the way to any exported object.
    func childNames(of path: ObjectPath) -> [String] {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        var names = Set<String>()
        for candidate in objects.keys.map(\.rawValue) + managers.map(\.rawValue) where candidate.hasPrefix(prefix) {
            let rest = candidate.dropFirst(prefix.count)
            if let name = rest.split(separator: "/", maxSplits: 1).first { names.insert(String(name)) }
        }
        return names.sorted()
    }

    /// The objects the manager at `path` is responsible for (below it, and not below a
    /// nearer manager), for `GetManagedObjects`.
    func objects(below path: ObjectPath) -> [(ObjectPath, [Interface])] {
        objects.filter { $0.key != path && $0.key.isInside(path) && manager(for: $0.key) == path }
            .sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
