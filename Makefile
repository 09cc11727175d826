# Thin wrappers of the npm scripts named in README.md.
.PHONY: install up reset test test-unit test-chaos test-ha bench lint build images

install:
	npm ci

build: install
	npm run build

up: install
	npm run up

# Drops what make up made (the database, the broker users and queues of its prefix), after asking y/N;
# `npm run reset -- --yes` for a script. The keys in .local/ stay (infra/local/reset.mjs).
reset:
	npm run reset

test: install
	npm test

# Only the unit tests (every test/unit folder: no server, seconds; after make install); `make test` runs them first.
test-unit:
	npm run test:unit

# Only the replica kill test (issue 17); `make test` runs it too.
test-chaos: install
	npm run test:chaos

# The system on clustered engines (RabbitMQ cluster, Patroni behind HAProxy, Redis Sentinel), each failing
# under load (D23): installs them from Debian's packages when missing, starts and stops them itself.
test-ha: install
	npm run test:ha

bench: install
	npm run bench

lint: install
	npm run lint

# Every image of infra/docker/service.Dockerfile built with podman, started against the
# local servers and paid through once (infra/images/build.mjs; installs podman when missing).
images: build
	npm run images
