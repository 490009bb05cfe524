import AlmanacWire
import DBus
import TestHarness
import Testing

/// The contract's names as docs/bus-api.md fixes them: every other test (and every client)
/// names the bus through `BusContract`, so this is where a changed name is caught.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BusContractTests {
    @Test func namesAndPathsAreTheDocumentedOnes() {
        #expect(BusContract.serviceName.rawValue == "org.almanac.Almanac1")
        #expect(BusContract.rootPath.rawValue == "/org/almanac/Almanac1")
        #expect(BusContract.rootInterface.rawValue == "org.almanac.Almanac1")
        #expect(BusContract.documentInterface.rawValue == "org.almanac.Document1")
        #expect(BusContract.viewInterface.rawValue == "org.almanac.View1")
        #expect(BusContract.weatherInterface.rawValue == "org.almanac.Weather1")
        #expect(BusContract.podcastsInterface.rawValue == "org.almanac.Podcasts1")
        #expect(BusContract.downloadInterface.rawValue == "org.almanac.Download1")
        #expect(BusContract.documentPath(.weather).rawValue == "/org/almanac/Almanac1/weather")
        #expect(BusContract.documentPath(.podcasts).rawValue == "/org/almanac/Almanac1/podcasts")
        #expect(BusContract.viewPath(.weather, 3).rawValue == "/org/almanac/Almanac1/weather/views/3")
        #expect(BusContract.viewPath(.podcasts, 1).rawValue == "/org/almanac/Almanac1/podcasts/views/1")
        #expect(BusContract.downloadsPath.rawValue == "/org/almanac/Almanac1/downloads")
        #expect(BusContract.downloadPath(7).rawValue == "/org/almanac/Almanac1/downloads/7")
        #expect(BusContract.syncInterface.rawValue == "org.almanac.Sync1")
        #expect(BusContract.syncPath.rawValue == "/org/almanac/Almanac1/sync")
    }

    @Test func errorNamesAreTheDocumentedOnes() {
        #expect(BusContract.noSuchView.rawValue == "org.almanac.Error.NoSuchView")
        #expect(BusContract.unknownLocation.rawValue == "org.almanac.Error.UnknownLocation")
        #expect(BusContract.notAFeed.rawValue == "org.almanac.Error.NotAFeed")
        #expect(BusContract.fetchFailed.rawValue == "org.almanac.Error.FetchFailed")
        #expect(BusContract.syncFailed.rawValue == "org.almanac.Error.SyncFailed")
        #expect(BusContract.authenticationFailed.rawValue == "org.almanac.Error.AuthenticationFailed")
        #expect(BusContract.notLoggedIn.rawValue == "org.almanac.Error.NotLoggedIn")
        #expect(BusContract.alreadyLoggedIn.rawValue == "org.almanac.Error.AlreadyLoggedIn")
    }

    @Test func memberNamesAreTheDocumentedOnes() {
        let members: [(MemberName, String)] = [
            (BusContract.Document1.getState, "GetState"), (BusContract.Document1.addView, "AddView"),
            (BusContract.Document1.removeView, "RemoveView"), (BusContract.Document1.submit, "Submit"),
            (BusContract.Document1.refresh, "Refresh"), (BusContract.Document1.changed, "Changed"),
            (BusContract.Document1.revision, "Revision"), (BusContract.Document1.loading, "Loading"),
            (BusContract.Document1.lastError, "LastError"), (BusContract.Document1.viewCount, "ViewCount"),
            (BusContract.View1.setOptions, "SetOptions"), (BusContract.View1.remove, "Remove"),
            (BusContract.View1.loadMore, "LoadMore"), (BusContract.View1.refreshList, "RefreshList"), (BusContract.View1.ack, "Ack"),
            (BusContract.View1.updated, "Updated"), (BusContract.View1.owner, "Owner"), (BusContract.View1.options, "Options"),
            (BusContract.Weather1.current, "Current"), (BusContract.Weather1.forecast, "Forecast"),
            (BusContract.Weather1.hourlyForecast, "HourlyForecast"), (BusContract.Weather1.addLocation, "AddLocation"),
            (BusContract.Weather1.removeLocation, "RemoveLocation"), (BusContract.Weather1.locations, "Locations"),
            (BusContract.Podcasts1.subscribe, "Subscribe"), (BusContract.Podcasts1.rename, "Rename"),
            (BusContract.Podcasts1.listEpisodes, "ListEpisodes"), (BusContract.Podcasts1.inspect, "Inspect"),
            (BusContract.Podcasts1.download, "Download"), (BusContract.Podcasts1.getEpisodeDetails, "GetEpisodeDetails"),
            (BusContract.Podcasts1.getPodcastSettings, "GetPodcastSettings"), (BusContract.Podcasts1.setPodcastSettings, "SetPodcastSettings"),
            (BusContract.Podcasts1.subscriptions, "Subscriptions"),
            (BusContract.Download1.cancel, "Cancel"), (BusContract.Download1.state, "State"),
            (BusContract.Sync1.login, "Login"), (BusContract.Sync1.logout, "Logout"), (BusContract.Sync1.sync, "Sync"),
            (BusContract.Sync1.lastError, "LastError"), (BusContract.Sync1.queued, "Queued"),
        ]
        for (member, documented) in members { #expect(member.rawValue == documented) }
    }
}
