"""`make stress`, section sandbox (scripts/stress.py runs it).

The daemon under the user unit's file-system sandbox, emulated with bubblewrap: the
whole tree read-only (ProtectSystem=strict), home empty (ProtectHome=tmpfs) but the state
and data folders (BindPaths=, given with --state-dir/--data-dir as ExecStart= does), a private /tmp, /dev and /proc of its own, a user, PID,
IPC and UTS namespace of its own (PrivateUsers=, …). It must serve, save and download.
(The system-call filter and the rest of the unit are systemd's; `SystemdUnitTests` checks
the unit itself.)"""
import os
import signal
import subprocess
import time

import dbus

from stress_common import BIN, REPO, SERVICE, WEATHER, PODCASTS, DOC, log, record, connect, call, get, all_episodes, integrity, descendants, Section


def run():
    with Section("sandbox") as s:
        if subprocess.run(["bwrap", "--ro-bind", "/", "/", "true"], capture_output=True).returncode != 0:
            record("sandbox", "the daemon under the unit's file-system sandbox", "needs bubblewrap", True, "skipped: bwrap is not usable here", skipped=True)
            return
        base = s.one_episode_feed("sandbox.xml", "Sandbox")
        bus = s.bus()
        home = os.path.join(s.folder, "home")
        state, data = os.path.join(home, ".local/state/almanac"), os.path.join(home, ".local/share/almanac")
        for folder in [state, data]:
            os.makedirs(folder, mode=0o700)  # ExecStartPre=+install -d -m 0700
        log_path = os.path.join(s.folder, "almanacd.log")
        # The daemon finds its home in the user database, as %h does: its folders there are
        # this section's, mounted over an empty home.
        user_home = os.path.expanduser("~" + __import__("pwd").getpwuid(os.getuid()).pw_name)
        env = {"PATH": "/usr/bin:/bin", "HOME": user_home}
        argv = ["bwrap", "--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-uts", "--die-with-parent",
                "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
                "--ro-bind", bus.directory, bus.directory, "--ro-bind", REPO, REPO,
                "--tmpfs", user_home, "--bind", state, user_home + "/.local/state/almanac",
                "--bind", data, user_home + "/.local/share/almanac", "--remount-ro", user_home,
                os.path.join(BIN, "almanacd"), "--address", bus.address, "--provider", "real",
                # As the unit's ExecStart= gives them.
                "--state-dir", user_home + "/.local/state/almanac", "--data-dir", user_home + "/.local/share/almanac",
                "--weather-interval", "3600", "--podcast-interval", "3600"]
        with open(log_path, "w") as log_file:
            daemon = s.spawn(argv, env=env, stdout=log_file, stderr=log_file)
        client = connect(bus)
        deadline = time.time() + 30
        while not client.name_has_owner(SERVICE) and daemon.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        steps = []
        try:
            call(client, WEATHER, DOC, "Submit", "a{sv}", (dbus.Dictionary({"units": "imperial"}, signature="sv"),))
            steps.append("settings saved")
            podcast = str(call(client, PODCASTS, "org.almanac.Podcasts1", "Subscribe", "s", (base + "/feeds/sandbox.xml",)))
            steps.append("feed read")
            episode = [e for e in all_episodes(client, podcast)][0]["id"]
            job = str(call(client, PODCASTS, "org.almanac.Podcasts1", "Download", "s", (episode,)))
            for _ in range(300):
                job_state = str(get(client, job, "org.almanac.Download1", "State"))
                if job_state in ("completed", "failed", "cancelled"):
                    break
                time.sleep(0.1)
            file = str(get(client, job, "org.almanac.Download1", "File"))
            inside = file.replace(user_home + "/.local/share/almanac", data, 1)
            if job_state == "completed" and file.startswith(user_home + "/.local/share/almanac/") and os.path.getsize(inside) == 300000:
                steps.append("episode downloaded")
            else:
                steps.append("download %s (%s)" % (job_state, get(client, job, "org.almanac.Download1", "Error")))
        except dbus.DBusException as error:
            steps.append("refused: %s" % error.get_dbus_message())
        alive = daemon.poll() is None
        written = sorted(os.path.relpath(os.path.join(root, name), home) for root, _, names in os.walk(home) for name in names)
        outside = [path for path in written if not path.startswith((".local/state/almanac/", ".local/share/almanac/"))]
        # SIGTERM to almanacd itself (bwrap does not pass signals on); bwrap exits with its status.
        for pid in descendants(daemon.pid):
            with open("/proc/%d/comm" % pid) as f:
                if f.read().strip() == "almanacd":
                    os.kill(pid, signal.SIGTERM)
        try:
            status = daemon.wait(10)
        except subprocess.TimeoutExpired:
            status = None
        # The state it saved is there for an unsandboxed start too.
        check = integrity(state)
        record("sandbox", "almanacd under the unit's file-system sandbox (bubblewrap: all read-only but the state and data folders, private /tmp, own namespaces)",
               "serves, saves, reads a feed, downloads; writes nothing else; exits 0 on SIGTERM",
               steps == ["settings saved", "feed read", "episode downloaded"] and alive and not outside and status == 0 and check == "ok",
               "%s; %d files written, %d outside the two folders; SIGTERM exit %s; integrity_check %s"
               % (", ".join(steps) or "did not start", len(written), len(outside), status, check))
        if daemon.returncode not in (0, None) or steps[-1:] != ["episode downloaded"]:
            with open(log_path) as f:
                log("    " + f.read()[-600:].replace("\n", "\n    "))
