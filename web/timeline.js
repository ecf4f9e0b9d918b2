// timeline.js: (being built) — see index.html for the order scripts run in.
