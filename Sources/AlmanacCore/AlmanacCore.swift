// Placeholder: filled in by the issues that build the daemon and its views.
