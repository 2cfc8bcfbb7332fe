"""The review service: webhooks in, jobs on a Redis queue, workers, commands in the merge request."""
