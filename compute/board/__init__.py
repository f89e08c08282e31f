"""A board: its file (`file`), the validated model (`model`), the rules it must keep (`problems`), where
rolls can take a token (`rules`, `reach`), and what solving it will cost (`cost`)."""
