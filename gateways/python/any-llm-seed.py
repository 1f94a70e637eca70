"""Seed an any-llm gateway database with one user and one API key before the gateway starts.

Written for gatecheck: the gateway prints a random "bootstrap" key in its log on first start
(a credential in a log we keep), and a master-key request must name a user in its body (a
field the probes would then carry). Instead the sweep's client key is stored here, hashed
with the gateway's own hash_key, through the gateway's own schema and migrations.

usage: python any-llm-seed.py DATABASE_URL USER_ID API_KEY
"""

import sys
import uuid
import warnings

warnings.simplefilter("ignore", DeprecationWarning)

from any_llm.gateway.auth import hash_key  # noqa: E402
from any_llm.gateway.core.database import get_db, init_db  # noqa: E402
from any_llm.gateway.models.entities import APIKey, User  # noqa: E402


def main() -> None:
    database_url, user_id, api_key = sys.argv[1:4]
    init_db(database_url, auto_migrate=True)
    db = next(get_db())
    try:
        if db.query(APIKey).filter(APIKey.key_hash == hash_key(api_key)).first() is None:
            db.add(User(user_id=user_id, alias="gatecheck sweep"))
            db.add(APIKey(id=str(uuid.uuid4()), key_hash=hash_key(api_key), key_name="gatecheck", user_id=user_id))
            db.commit()
    finally:
        db.close()
    print(f"seeded user {user_id} and one API key (sha256 {hash_key(api_key)[:12]}...)")


if __name__ == "__main__":
    main()
