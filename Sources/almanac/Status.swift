import AlmanacModels
import AlmanacWire
import AlmanacViews
import ArgumentParser
import DBus
import FoundationEssentials

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Says whether almanacd is reachable, and its version, documents and views.")

    @OptionGroup var output: OutputOptions<StatusFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        let client = try await common.connect()
        do {
            let status = try await client.status()
            // What a metered connection holds back depends on the setting: asked only then.
            let metered = status.network == NetworkState.metered.rawValue ? try? await client.podcastSettings().metered : nil
            // A daemon from before the player object has no timer to show.
            let timer = try? await client.sleepTimer()
            let sleep = SleepTimerViewData(timer: timer, now: clockNow())
            let rendering = output.rendering()
            if rendering.json {
                Terminal().line(Rendering.json(StatusJSON(status: status, sleepTimer: sleep.json)))
            } else if let template = rendering.template {
                Terminal().line(template.render(Self.view(status).fields))
            } else {
                for line in rendering.status(Self.view(status, metered: metered)) { Terminal().line(line) }
                if timer != nil { Terminal().textLine("  sleep timer: " + sleep.summary) }
            }
            await client.connection.close()
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }

    /// What the daemon reported, worded for a person or a template.
    static func view(_ status: DaemonStatus, metered: MeteredUse? = nil) -> DaemonStatusViewData {
        DaemonStatusViewData(version: status.version, owner: status.owner, provider: status.provider, network: status.network, metered: metered, documents: status.documents.map {
            let next = $0.nextRefresh.map { Date(timeIntervalSince1970: Double($0)) }
            return .init(name: $0.name, revision: $0.revision, viewCount: Int($0.viewCount), loading: $0.loading, lastError: $0.lastError,
                         nextRefresh: next, utcOffset: next.map(localUTCOffset(at:)) ?? 0)
        })
    }
}

/// `almanac status --json`: the daemon's status with the sleep timer beside it (`sleepTimer`).
private struct StatusJSON: Encodable {
    let status: DaemonStatus
    let sleepTimer: JSONValue

    private enum Key: String, CodingKey { case sleepTimer }

    func encode(to encoder: any Encoder) throws {
        try status.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(sleepTimer, forKey: .sleepTimer)
    }
}
