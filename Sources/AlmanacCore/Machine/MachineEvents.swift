public import AlmanacModels

/// What the machine tells almanacd, as a watcher of the system (logind, NetworkManager)
/// reports it to the core: the bus layer watches, the core decides what to do.
public protocol MachineEvents: AnyObject, Sendable {
    /// The machine is going to sleep (logind's `PrepareForSleep(true)`).
    func suspending()
    /// The machine woke from sleep (logind's `PrepareForSleep(false)`).
    func resumed()
    /// The network is now `state` (`.unknown` when NetworkManager is gone).
    func networkChanged(to state: NetworkState)
}
