"""The season's standings: /leaderboard."""
