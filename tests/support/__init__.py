"""What the tests share that is not a fixture: starting, waiting for and stopping processes."""
